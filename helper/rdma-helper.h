/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_HELPER_H
#define RDMA_HELPER_H

#include "roce-fabric.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-endpoint.h"

#include <array>
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
     * Check a congestion control's attribute defaults: RdmaCongestionOps::CheckConfig of an
     * object of that type made with the current defaults (the checks that need the line rate
     * are left to its Start).
     * @param cc a RdmaCongestionOps subclass.
     * @return "" or the problem, e.g. "ns3::Dctcp: G (0) is outside (0, 1]".
     */
    static std::string CheckCongestionControl(TypeId cc);

    /**
     * The switch ECN marking a congestion control states (RdmaCongestionOps::GetEcnMarking),
     * asked of an object of that type made with the current attribute defaults.
     * @param cc a RdmaCongestionOps subclass.
     * @param[out] marking its marking (unchanged when it states none).
     * @return whether it states one.
     */
    static bool GetEcnMarking(TypeId cc, RdmaEcnMarking& marking);

    /**
     * A program's ECN options completed by its congestion control: each of Kmin, Kmax and Pmax
     * the user did not give becomes the algorithm's (GetEcnMarking), if it states a marking;
     * the algorithm's reference rate (SwitchMmu::EcnReferenceRate) comes with it only when
     * both thresholds are the algorithm's (a threshold the user gave is bytes on every port).
     * What the user gave is left as it is, and so is everything when the algorithm states no
     * marking.
     * @param cc the congestion control.
     * @param given whether the user gave Kmin, Kmax and Pmax.
     * @param[in,out] kmin Kmin, as a size ("5KB").
     * @param[in,out] kmax Kmax, as a size.
     * @param[in,out] pmax Pmax.
     * @param[out] referenceRate the EcnReferenceRate to set (0: none).
     * @return whether the algorithm states a marking.
     */
    static bool CompleteEcnOptions(TypeId cc,
                                   const std::array<bool, 3>& given,
                                   std::string& kmin,
                                   std::string& kmax,
                                   double& pmax,
                                   DataRate& referenceRate);

    /**
     * Which of --kmin, --kmax and --pmax a program's command line gives (as
     * CompleteEcnOptions's given).
     * @param argc argument count.
     * @param argv arguments.
     * @return whether each was given, in that order.
     */
    static std::array<bool, 3> GetGivenEcnOptions(int argc, char* argv[]);

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
