/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "flow-statistics.h"

#include "ns3/abort.h"
#include "ns3/simulator.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <sys/resource.h>

namespace ns3
{

double
FlowStatistics::IdealFctNs(uint64_t bytes,
                           uint32_t mtu,
                           const std::vector<DataRate>& rates,
                           Time delay)
{
    return IdealFctNs(bytes, mtu, rates, std::vector<Time>(rates.size(), delay));
}

double
FlowStatistics::IdealFctNs(uint64_t bytes,
                           uint32_t mtu,
                           const std::vector<DataRate>& rates,
                           const std::vector<Time>& delays)
{
    NS_ABORT_MSG_IF(delays.size() != rates.size(), "IdealFctNs: one delay per rate");
    std::vector<double> d;
    for (const auto& delay : delays)
    {
        d.push_back(static_cast<double>(delay.GetPicoSeconds()) / 1000.0);
    }
    std::vector<double> byteNs;
    for (const auto& rate : rates)
    {
        byteNs.push_back(8e9 / static_cast<double>(rate.GetBitRate()));
    }
    std::vector<double> free(rates.size(), 0.0); // when each hop can start the next frame
    uint64_t packets = (bytes + mtu - 1) / mtu;
    double arrival = 0;
    for (uint64_t k = 0; k < packets; ++k)
    {
        uint64_t payload = std::min<uint64_t>(mtu, bytes - k * mtu);
        uint64_t frame = 58 + payload + (k == 0 ? 16 : 0);
        arrival = 0; // the sender has the whole message at time 0
        for (size_t j = 0; j < rates.size(); ++j)
        {
            double start = std::max(arrival, free[j]);
            free[j] = start + (frame + 24) * byteNs[j];
            arrival = start + (frame + 12) * byteNs[j] + d[j];
        }
    }
    double ack = arrival;
    for (size_t j = rates.size(); j-- > 0;)
    {
        ack += (62 + 12) * byteNs[j] + d[j];
    }
    return ack;
}

std::string
FlowStatistics::DistributionJson(std::vector<double> v)
{
    return Distribution(std::move(v)).dump();
}

nlohmann::ordered_json
FlowStatistics::Distribution(std::vector<double> v)
{
    if (v.empty())
    {
        return nullptr;
    }
    std::sort(v.begin(), v.end());
    auto rank = [&v](double q) {
        auto i = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size())));
        return v[std::min(v.size() - 1, i == 0 ? 0 : i - 1)];
    };
    double mean = 0;
    for (double x : v)
    {
        mean += x / static_cast<double>(v.size());
    }
    return {{"min", v.front()},
            {"p50", rank(0.5)},
            {"p99", rank(0.99)},
            {"p999", rank(0.999)},
            {"max", v.back()},
            {"mean", mean}};
}

uint64_t
FlowStatistics::CountLinkFrames(const RoceFabric& fabric)
{
    uint64_t frames = 0;
    NetDeviceContainer devices = fabric.GetAllDevices();
    for (uint32_t i = 0; i < devices.GetN(); ++i)
    {
        Ptr<RoceNetDevice> d = DynamicCast<RoceNetDevice>(devices.Get(i));
        for (uint8_t p = 0; p < RoceNetDevice::NUM_PRIORITIES; ++p)
        {
            const RoceNetDevice::Counters& c = d->GetCounters(p);
            frames += c.txFrames + c.pausesSent + c.resumesSent;
        }
    }
    return frames;
}

FlowStatistics::TransportCounters
FlowStatistics::SumQueuePairs(const std::vector<Ptr<RdmaEndpoint>>& endpoints)
{
    TransportCounters counters;
    for (const auto& endpoint : endpoints)
    {
        for (const auto& qp : endpoint->GetQueuePairs())
        {
            counters.dataPackets += qp->GetPacketsSent();
            counters.retransmitted += qp->GetRetransmissions();
            counters.cnps += qp->GetCnpsReceived();
        }
    }
    return counters;
}

FlowStatistics::FlowRunSummary
FlowStatistics::Run(const RoceFabric& fabric,
                    const std::vector<Ptr<RdmaEndpoint>>& endpoints,
                    FabricMonitor& monitor)
{
    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    FlowRunSummary summary;
    summary.wallS =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    monitor.Finish();
    summary.events = Simulator::GetEventCount();
    summary.transport = SumQueuePairs(endpoints);
    summary.linkFrames = CountLinkFrames(fabric);
    summary.monitor = &monitor;
    return summary;
}

std::string
FlowStatistics::SummaryJson(const FlowRunSummary& s)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    nlohmann::ordered_json json;
    json["flows"] = s.flows;
    json["flows_done"] = s.flowsDone;
    json["last_flow_end_us"] = s.lastFlowEnd.GetNanoSeconds() / 1000.0;
    json["fct_us"] = Distribution(s.fctUs);
    json["slowdown"] = Distribution(s.slowdown);
    json["data_packets"] = s.transport.dataPackets;
    json["retransmitted_packets"] = s.transport.retransmitted;
    json["link_frames"] = s.linkFrames;
    json["pfc_pause_frames"] = s.monitor->GetTotalPauseFramesSent();
    json["drops"] = s.monitor->GetTotalDrops();
    json["ecn_marks"] = s.monitor->GetTotalEcnMarks();
    json["cnps"] = s.transport.cnps;
    json["max_queue_bytes"] = s.monitor->GetMaxQueueBytes();
    json["events"] = s.events;
    json["wall_s"] = s.wallS;
    json["peak_rss_mib"] = usage.ru_maxrss / 1024.0;
    return json.dump(2) + "\n";
}

std::string
FlowStatistics::CountersText(const FlowRunSummary& s)
{
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::ostringstream text;
    text << "  data packets " << s.transport.dataPackets << ", retransmitted "
         << s.transport.retransmitted << ", drops " << s.monitor->GetTotalDrops() << "\n"
         << "  PFC pause frames " << s.monitor->GetTotalPauseFramesSent() << ", ECN marks "
         << s.monitor->GetTotalEcnMarks() << ", CNPs " << s.transport.cnps << ", largest queue "
         << s.monitor->GetMaxQueueBytes() << " bytes\n"
         << "  " << s.events << " events, " << s.linkFrames << " link frames in " << s.wallS
         << " s (" << s.linkFrames / s.wallS << " link frames/s), peak RSS "
         << usage.ru_maxrss / 1024 << " MiB\n";
    return text.str();
}

} // namespace ns3
