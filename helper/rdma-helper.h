/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "roce-fabric.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
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
     * The congestion control a name stands for: TypeIdAlias::Resolve under
     * ns3::RdmaCongestionOps (kept for programs that call it).
     * @param name an alias ("none", "fixed", "dcqcn", ...) or a TypeId name ("ns3::Dcqcn").
     * @param[out] tid its TypeId.
     * @return "" or why the name is not known (one line).
     */
    static std::string LookupCongestionControl(const std::string& name, TypeId& tid);

    /**
     * Receives one change of a congestion-control variable.
     * Arguments: the time, the flow number given to ConnectCongestionControlTraces, the
     * variable's display name and its new value times the display scale
     * (RdmaCongestionOps::GetVariableDisplay).
     */
    typedef Callback<void, Time, uint32_t, const std::string&, double> CcVariableCallback;

    /**
     * Connect every TracedValue of a queue pair's congestion control (those of its TypeId and
     * of its parents: Rate and Window of RdmaCongestionOps, and what the algorithm adds) to one
     * sink, whatever the algorithm. A trace source counts as a TracedValue when its callback
     * signature is one of ns3::TracedValueCallback's (Bool, Int8 to Uint64, Double, Time; a
     * Time is reported in seconds times the scale).
     * @param qp the queue pair.
     * @param flow a number passed to the sink with each change.
     * @param sink receives each change as it happens.
     * @return the number of variables connected.
     */
    static uint32_t ConnectCongestionControlTraces(Ptr<RdmaQueuePair> qp,
                                                   uint32_t flow,
                                                   CcVariableCallback sink);

    /**
     * Install the endpoints. If their congestion control asks for in-band telemetry
     * (RdmaCongestionOps::NeedsTelemetry, as HPCC does), AddTelemetryStages then gives the
     * fabric's switches the stage that fills it.
     * @param fabric the fabric.
     * @return one endpoint per host, in host order.
     */
    std::vector<Ptr<RdmaEndpoint>> Install(const RoceFabric& fabric) const;

    /**
     * Add an IntStamper to every switch of a fabric that has none, if the congestion control
     * of an endpoint (its CongestionControl attribute) asks for in-band telemetry.
     * @param fabric the fabric.
     * @param endpoint an endpoint of it.
     */
    static void AddTelemetryStages(const RoceFabric& fabric, Ptr<RdmaEndpoint> endpoint);

  private:
    ObjectFactory m_endpointFactory; //!< makes endpoints
};

} // namespace ns3

#endif /* RDMA_HELPER_H */
