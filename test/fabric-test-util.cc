/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/ethernet-header.h"
#include "ns3/ipv4-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-source-helper.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

using namespace ns3;

namespace llmfabric
{
namespace tests
{

Link
MakeLink(DataRate rate, Time delay)
{
    Mac48Address macA = Mac48Address::Allocate();
    return MakeLink(rate, delay, macA, Mac48Address::Allocate());
}

Link
MakeLink(DataRate rate, Time delay, Mac48Address macA, Mac48Address macB)
{
    Link link;
    Ptr<RoceChannel> channel = CreateObject<RoceChannel>();
    channel->SetAttribute("Delay", TimeValue(delay));
    for (auto* end : {&link.a, &link.b})
    {
        Ptr<Node> node = CreateObject<Node>();
        *end = CreateObject<RoceNetDevice>();
        (*end)->SetAttribute("DataRate", DataRateValue(rate));
        (*end)->SetAddress(end == &link.a ? macA : macB);
        node->AddDevice(*end);
        (*end)->Attach(channel);
    }
    return link;
}

Ptr<Packet>
MakeFrame(uint32_t bytes, uint8_t dscp)
{
    Ptr<Packet> p = Create<Packet>(bytes - 34);
    Ipv4Header ip;
    ip.SetSource(Ipv4Address("10.0.0.1"));
    ip.SetDestination(Ipv4Address("10.0.0.2"));
    ip.SetProtocol(17);
    ip.SetPayloadSize(bytes - 34);
    ip.SetDscp(static_cast<Ipv4Header::DscpType>(dscp));
    p->AddHeader(ip);
    EthernetHeader eth(false);
    eth.SetSource(Mac48Address("02:00:00:00:00:01"));
    eth.SetDestination(Mac48Address("02:00:00:00:00:02"));
    eth.SetLengthType(0x0800);
    p->AddHeader(eth);
    return p;
}

void
EnqueueFrames(Ptr<RoceNetDevice> port,
              uint32_t count,
              uint32_t bytes,
              uint8_t dscp,
              uint8_t priority)
{
    for (uint32_t k = 0; k < count; ++k)
    {
        port->Enqueue(MakeFrame(bytes, dscp), priority, 0);
    }
}

Ptr<RoceConstantRateSource>
AddConstantRateSource(const RoceFabric& fabric,
                      uint32_t from,
                      uint32_t to,
                      DataRate rate,
                      uint64_t packets,
                      uint32_t payload,
                      uint16_t udpPort,
                      bool ect)
{
    RoceSourceHelper sources;
    sources.SetAttribute("DataRate", DataRateValue(rate));
    sources.SetAttribute("PayloadSize", UintegerValue(payload));
    sources.SetAttribute("MaxPackets", UintegerValue(packets));
    sources.SetAttribute("Ect", BooleanValue(ect));
    return sources.Install(fabric, from, to, udpPort);
}

void
AddTwoToOneIncast(const RoceFabric& fabric, uint32_t to, uint64_t packets, bool ect)
{
    AddConstantRateSource(fabric, 0, to, DataRate("100Gbps"), packets, 930, 0xC000, ect);
    AddConstantRateSource(fabric, 1, to, DataRate("100Gbps"), packets, 930, 0xC001, ect);
}

std::vector<Ptr<RdmaEndpoint>>
MakeRdmaStar(uint32_t hosts, RoceTopologyHelper& topo, RoceFabric& fabric, DataRate rate)
{
    fabric = topo.BuildStar(hosts, rate, MicroSeconds(1));
    fabric.AssignStreams(1);
    RdmaHelper rdma;
    return rdma.Install(fabric);
}

RoceTopologyHelper::LeafSpineConfig
LeafSpineShape(uint32_t hostsPerLeaf, uint32_t leaves, uint32_t spines)
{
    RoceTopologyHelper::LeafSpineConfig shape;
    shape.hostsPerLeaf = hostsPerLeaf;
    shape.leaves = leaves;
    shape.spines = spines;
    return shape;
}

void
LoseReceivedFrames(const RoceFabric& fabric, uint32_t host, const std::list<uint32_t>& frames)
{
    Ptr<ReceiveListErrorModel> loss = CreateObject<ReceiveListErrorModel>();
    loss->SetList(frames);
    fabric.GetHostDevice(host)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
}

void
SetEcnMarking(RoceTopologyHelper& topo,
              const std::string& kmin,
              const std::string& kmax,
              double pmax)
{
    topo.SetMmuAttribute("Kmin", QueueSizeValue(QueueSize(kmin)));
    topo.SetMmuAttribute("Kmax", QueueSizeValue(QueueSize(kmax)));
    topo.SetMmuAttribute("Pmax", DoubleValue(pmax));
}

FrameRecorder::FrameRecorder(Ptr<RoceNetDevice> port)
{
    Record(port);
}

void
FrameRecorder::Record(Ptr<RoceNetDevice> port)
{
    port->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&FrameRecorder::Received, this));
}

void
FrameRecorder::Received(Ptr<const Packet> frame)
{
    frames.push_back(frame->Copy());
    times.push_back(Simulator::Now());
}

Time
FrameRecorder::GetLast() const
{
    return times.empty() ? Time(0) : times.back();
}

} // namespace tests
} // namespace llmfabric
