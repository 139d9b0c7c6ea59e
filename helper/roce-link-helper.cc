/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "roce-link-helper.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/names.h"
#include "ns3/pcap-file-wrapper.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-net-device.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoceLinkHelper");

RoceLinkHelper::RoceLinkHelper()
    : m_snapLength(65535)
{
    m_deviceFactory.SetTypeId("ns3::RoceNetDevice");
    m_channelFactory.SetTypeId("ns3::RoceChannel");
}

void
RoceLinkHelper::SetDeviceAttribute(const std::string& name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
RoceLinkHelper::SetChannelAttribute(const std::string& name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
RoceLinkHelper::SetSnapLength(uint32_t snapLength)
{
    m_snapLength = snapLength;
}

NetDeviceContainer
RoceLinkHelper::Install(Ptr<Node> a, Ptr<Node> b) const
{
    NetDeviceContainer devices;
    Ptr<RoceChannel> channel = m_channelFactory.Create<RoceChannel>();
    for (const Ptr<Node>& node : {a, b})
    {
        Ptr<RoceNetDevice> device = m_deviceFactory.Create<RoceNetDevice>();
        device->SetAddress(AllocateMac48Address());
        node->AddDevice(device);
        device->Attach(channel);
        devices.Add(device);
    }
    return devices;
}

NetDeviceContainer
RoceLinkHelper::Install(Ptr<Node> a, Ptr<Node> b, DataRate rate, Time delay) const
{
    NetDeviceContainer devices = Install(a, b);
    for (uint32_t i = 0; i < 2; ++i)
    {
        devices.Get(i)->SetAttribute("DataRate", DataRateValue(rate));
    }
    devices.Get(0)->GetChannel()->SetAttribute("Delay", TimeValue(delay));
    return devices;
}

void
RoceLinkHelper::EnablePcapInternal(std::string prefix,
                                   Ptr<NetDevice> nd,
                                   bool promiscuous,
                                   bool explicitFilename)
{
    Ptr<RoceNetDevice> device = DynamicCast<RoceNetDevice>(nd);
    if (!device)
    {
        NS_LOG_WARN("RoceLinkHelper: " << nd << " is not a RoceNetDevice; no pcap");
        return;
    }
    PcapHelper pcapHelper;
    std::string filename =
        explicitFilename ? prefix : pcapHelper.GetFilenameFromDevice(prefix, device);
    // PcapHelper::CreateFile has no nanosecond switch: open the file ourselves.
    Ptr<PcapFileWrapper> file = CreateObject<PcapFileWrapper>();
    file->SetAttribute("NanosecMode", BooleanValue(true));
    file->Open(filename, std::ios::out | std::ios::binary);
    NS_ABORT_MSG_IF(file->Fail(), "RoceLinkHelper: cannot write pcap " << filename);
    file->Init(PcapHelper::DLT_EN10MB, m_snapLength);
    pcapHelper.HookDefaultSink<RoceNetDevice>(device, "PromiscSniffer", file);
}

void
RoceLinkHelper::EnableAsciiInternal(Ptr<OutputStreamWrapper> stream,
                                    std::string prefix,
                                    Ptr<NetDevice> nd,
                                    bool explicitFilename)
{
    Ptr<RoceNetDevice> device = DynamicCast<RoceNetDevice>(nd);
    if (!device)
    {
        NS_LOG_WARN("RoceLinkHelper: " << nd << " is not a RoceNetDevice; no ascii trace");
        return;
    }
    AsciiTraceHelper asciiHelper;
    Ptr<OutputStreamWrapper> out = stream;
    if (!out)
    {
        std::string filename =
            explicitFilename ? prefix : asciiHelper.GetFilenameFromDevice(prefix, device);
        out = asciiHelper.CreateFileStream(filename);
    }
    // "+" when a frame starts on the wire, "-" when the wire is free again, "r" on arrival.
    asciiHelper.HookDefaultEnqueueSinkWithoutContext<RoceNetDevice>(device, "PhyTxBegin", out);
    asciiHelper.HookDefaultDequeueSinkWithoutContext<RoceNetDevice>(device, "PhyTxEnd", out);
    asciiHelper.HookDefaultReceiveSinkWithoutContext<RoceNetDevice>(device, "PhyRxEnd", out);
}

} // namespace ns3
