/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "roce-fabric.h"

#include "ns3/object-factory.h"
#include "ns3/rdma-endpoint.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief Installs an RdmaEndpoint on every host of a fabric (aggregated to the host node,
 * attached to its port, with its address).
 */
class RdmaHelper
{
  public:
    RdmaHelper();

    /**
     * Set an attribute of the endpoints (CongestionControl, DataDscp, ControlDscp).
     * @param name attribute of ns3::RdmaEndpoint.
     * @param value its value.
     */
    void SetEndpointAttribute(const std::string& name, const AttributeValue& value);

    /**
     * The congestion control a short name stands for.
     * @param name "none" (ns3::RdmaCcNone), "fixed" (ns3::RdmaCcFixedRate) or "dcqcn"
     *        (ns3::Dcqcn).
     * @param[out] tid its TypeId.
     * @return "" or why the name is not known.
     */
    static std::string LookupCongestionControl(const std::string& name, TypeId& tid);

    /**
     * Install the endpoints.
     * @param fabric the fabric.
     * @return one endpoint per host, in host order.
     */
    std::vector<Ptr<RdmaEndpoint>> Install(const RoceFabric& fabric) const;

  private:
    ObjectFactory m_endpointFactory; //!< makes endpoints
};

} // namespace ns3

#endif /* RDMA_HELPER_H */
