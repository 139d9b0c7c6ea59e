/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-helper.h"

#include "ns3/int-stamper.h"
#include "ns3/log.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/simulator.h"
#include "ns3/type-id-alias.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaHelper");

namespace
{

/// Where one congestion-control variable's changes go: bound into one callback argument
/// (ns-3.35's MakeBoundCallback binds at most three).
struct CcVariableForward
{
    RdmaHelper::CcVariableCallback sink; //!< the sink
    uint32_t flow;                       //!< the flow number
    std::string name;                    //!< the display name
    double scale;                        //!< the display scale

    /**
     * Callbacks compare their bound arguments (to disconnect one).
     * @param other another forward.
     * @return whether both send the same variable to the same sink.
     */
    bool operator==(const CcVariableForward& other) const
    {
        return sink.IsEqual(other.sink) && flow == other.flow && name == other.name &&
               scale == other.scale;
    }

    /**
     * @param other another forward.
     * @return whether they differ.
     */
    bool operator!=(const CcVariableForward& other) const
    {
        return !(*this == other);
    }
};

/**
 * Forward one change of a TracedValue to a sink.
 * @param to the sink, flow and display.
 * @param oldValue the previous value (unused).
 * @param newValue the new value.
 */
template <typename T>
void
ForwardChange(CcVariableForward to, T oldValue, T newValue)
{
    to.sink(Simulator::Now(), to.flow, to.name, static_cast<double>(newValue) * to.scale);
}

/**
 * Forward one change of a Time TracedValue to a sink, in seconds.
 * @param to the sink, flow and display.
 * @param oldValue the previous value (unused).
 * @param newValue the new value.
 */
void
ForwardTimeChange(CcVariableForward to, Time oldValue, Time newValue)
{
    to.sink(Simulator::Now(), to.flow, to.name, newValue.GetSeconds() * to.scale);
}

/**
 * Connect one TracedValue of a given value type.
 * @param object the object.
 * @param source the trace source.
 * @param sink the sink.
 * @param flow the flow number.
 * @param display its name and scale.
 * @return whether it was connected.
 */
template <typename T>
bool
ConnectAs(Ptr<Object> object,
          const std::string& source,
          RdmaHelper::CcVariableCallback sink,
          uint32_t flow,
          const RdmaCcVariableDisplay& display)
{
    return object->TraceConnectWithoutContext(
        source,
        MakeBoundCallback(&ForwardChange<T>,
                          CcVariableForward{sink, flow, display.name, display.scale}));
}

} // namespace

RdmaHelper::RdmaHelper()
{
    m_endpointFactory.SetTypeId("ns3::RdmaEndpoint");
}

void
RdmaHelper::SetEndpointAttribute(const std::string& name, const AttributeValue& value)
{
    m_endpointFactory.Set(name, value);
}

std::string
RdmaHelper::LookupCongestionControl(const std::string& name, TypeId& tid)
{
    return TypeIdAlias::Resolve(RdmaCongestionOps::GetTypeId(), name, tid, "congestion control");
}

std::string
RdmaHelper::CheckCongestionControl(TypeId cc)
{
    ObjectFactory factory;
    factory.SetTypeId(cc);
    Ptr<RdmaCongestionOps> ops = factory.Create<RdmaCongestionOps>();
    std::string problem = ops->CheckConfig();
    ops->Dispose();
    return problem.empty() ? problem : cc.GetName() + ": " + problem;
}

bool
RdmaHelper::GetEcnMarking(TypeId cc, RdmaEcnMarking& marking)
{
    ObjectFactory factory;
    factory.SetTypeId(cc);
    Ptr<RdmaCongestionOps> ops = factory.Create<RdmaCongestionOps>();
    bool states = ops->GetEcnMarking(marking);
    ops->Dispose();
    return states;
}

bool
RdmaHelper::CompleteEcnOptions(TypeId cc,
                               const std::array<bool, 3>& given,
                               std::string& kmin,
                               std::string& kmax,
                               double& pmax,
                               DataRate& referenceRate)
{
    referenceRate = DataRate(0);
    RdmaEcnMarking marking;
    if (!GetEcnMarking(cc, marking))
    {
        return false;
    }
    if (!given[0])
    {
        kmin = std::to_string(marking.kminBytes) + "B";
    }
    if (!given[1])
    {
        kmax = std::to_string(marking.kmaxBytes) + "B";
    }
    if (!given[2])
    {
        pmax = marking.pmax;
    }
    if (!given[0] && !given[1])
    {
        referenceRate = marking.referenceRate;
    }
    return true;
}

std::array<bool, 3>
RdmaHelper::GetGivenEcnOptions(int argc, char* argv[])
{
    std::array<bool, 3> given{};
    const std::array<std::string, 3> names{"--kmin=", "--kmax=", "--pmax="};
    for (int i = 1; i < argc; ++i)
    {
        const std::string arg = argv[i];
        for (size_t k = 0; k < names.size(); ++k)
        {
            given[k] = given[k] || arg.rfind(names[k], 0) == 0;
        }
    }
    return given;
}

uint32_t
RdmaHelper::ConnectCongestionControlTraces(Ptr<RdmaQueuePair> qp,
                                           uint32_t flow,
                                           CcVariableCallback sink)
{
    Ptr<RdmaCongestionOps> cc = qp->GetCongestionControl();
    // The class and its parents, the base first (so that Rate comes before the algorithm's own).
    std::vector<TypeId> chain;
    for (TypeId tid = cc->GetInstanceTypeId(); tid != Object::GetTypeId(); tid = tid.GetParent())
    {
        chain.insert(chain.begin(), tid);
    }
    const std::string prefix = "ns3::TracedValueCallback::";
    uint32_t connected = 0;
    for (const TypeId& tid : chain)
    {
        for (uint32_t i = 0; i < tid.GetTraceSourceN(); ++i)
        {
            TypeId::TraceSourceInformation info = tid.GetTraceSource(i);
            if (info.callback.rfind(prefix, 0) != 0)
            {
                continue; // not a TracedValue
            }
            std::string type = info.callback.substr(prefix.size());
            RdmaCcVariableDisplay display = cc->GetVariableDisplay(info.name);
            bool ok = type == "Bool"     ? ConnectAs<bool>(cc, info.name, sink, flow, display)
                      : type == "Int8"   ? ConnectAs<int8_t>(cc, info.name, sink, flow, display)
                      : type == "Uint8"  ? ConnectAs<uint8_t>(cc, info.name, sink, flow, display)
                      : type == "Int16"  ? ConnectAs<int16_t>(cc, info.name, sink, flow, display)
                      : type == "Uint16" ? ConnectAs<uint16_t>(cc, info.name, sink, flow, display)
                      : type == "Int32"  ? ConnectAs<int32_t>(cc, info.name, sink, flow, display)
                      : type == "Uint32" ? ConnectAs<uint32_t>(cc, info.name, sink, flow, display)
                      : type == "Int64"  ? ConnectAs<int64_t>(cc, info.name, sink, flow, display)
                      : type == "Uint64" ? ConnectAs<uint64_t>(cc, info.name, sink, flow, display)
                      : type == "Double" ? ConnectAs<double>(cc, info.name, sink, flow, display)
                      : type == "Time"
                          ? cc->TraceConnectWithoutContext(
                                info.name,
                                MakeBoundCallback(
                                    &ForwardTimeChange,
                                    CcVariableForward{sink, flow, display.name, display.scale}))
                          : false;
            if (ok)
            {
                ++connected;
            }
            else
            {
                NS_LOG_WARN("cannot connect " << tid.GetName() << "::" << info.name << " ("
                                              << info.callback << ")");
            }
        }
    }
    return connected;
}

std::vector<Ptr<RdmaEndpoint>>
RdmaHelper::Install(const RoceFabric& fabric) const
{
    std::vector<Ptr<RdmaEndpoint>> endpoints;
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        Ptr<RdmaEndpoint> endpoint = m_endpointFactory.Create<RdmaEndpoint>();
        fabric.GetHost(h)->AggregateObject(endpoint);
        endpoint->Setup(fabric.GetHostDevice(h), fabric.GetHostAddress(h));
        endpoints.push_back(endpoint);
    }
    if (!endpoints.empty())
    {
        AddTelemetryStages(fabric, endpoints.front());
    }
    return endpoints;
}

void
RdmaHelper::AddTelemetryStages(const RoceFabric& fabric, Ptr<RdmaEndpoint> endpoint)
{
    TypeIdValue cc;
    endpoint->GetAttribute("CongestionControl", cc);
    ObjectFactory factory;
    factory.SetTypeId(cc.Get());
    Ptr<RdmaCongestionOps> probe = factory.Create<RdmaCongestionOps>();
    bool needed = probe->NeedsTelemetry();
    probe->Dispose();
    for (uint32_t s = 0; needed && s < fabric.GetNSwitches(); ++s)
    {
        Ptr<RoceSwitch> sw = fabric.GetSwitch(s);
        bool present = false;
        for (const auto& stage : sw->GetEgressStages())
        {
            present = present || DynamicCast<IntStamper>(stage);
        }
        if (!present)
        {
            sw->AddEgressStage(CreateObject<IntStamper>());
        }
    }
}

} // namespace ns3
