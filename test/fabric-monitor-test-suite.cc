/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/ethernet-header.h"
#include "ns3/fabric-monitor.h"
#include "ns3/ipv4-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/node.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-net-device.h"
#include "ns3/roce-switch.h"
#include "ns3/simulator.h"
#include "ns3/test.h"

#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param fields the fields of a CSV line.
 * @return them joined with commas.
 */
std::string
Join(const std::vector<std::string>& fields)
{
    std::string line;
    for (size_t i = 0; i < fields.size(); ++i)
    {
        line += (i == 0 ? "" : ",") + fields[i];
    }
    return line;
}

/**
 * A 100 Gb/s link with a 1 us delay whose ports a FabricMonitor watches: port a always, port b
 * if it is given a name.
 */
struct MonitoredLink
{
    /**
     * @param nameA the name of port a in the monitor's files.
     * @param nameB the name of port b; empty: b is not watched.
     */
    explicit MonitoredLink(const std::string& nameA, const std::string& nameB = "")
        : link(MakeLink(DataRate("100Gbps"), MicroSeconds(1)))
    {
        monitor.AddPort(link.a, nameA);
        if (!nameB.empty())
        {
            monitor.AddPort(link.b, nameB);
        }
    }

    Link link;             //!< the link
    FabricMonitor monitor; //!< the monitor
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The pause intervals file holds each pause of a port by its peer, with the times derived by
 * hand; the closed intervals add up to the port's pausedTime; a pause still open at Finish()
 * ends at the Finish time.
 */
class FabricMonitorPauseTestCase : public TestCase
{
  public:
    FabricMonitorPauseTestCase()
        : TestCase("Pause intervals are written with their exact times and add up")
    {
    }

  private:
    void DoRun() override
    {
        std::string path = CreateTempDirFilename("fabric-monitor-pauses.csv");
        std::string countersPath = CreateTempDirFilename("fabric-monitor-pause-counters.csv");
        MonitoredLink net("a", "b");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.EnablePauseIntervals(path), true, "file opens");

        // A PFC frame is 60 bytes; with preamble and FCS it takes (8 + 60 + 4) x 0.08 =
        // 5.76 ns at 100 Gb/s, 6 ns rounded, and arrives 1 us later: a pause sent at t starts
        // at A at t + 1006 ns. One quantum is 512 bit times, 5.12 ns.
        // - at 10 us, 1000 quanta: 11006 ns to 11006 + 5120 = 16126 ns;
        // - at 20 us, 3 quanta = 15.36 ns: 21006 ns to 21021 ns (rounded to the resolution);
        // - at 40 us, 65535 quanta (335.5392 us): 41006 ns, still open when the run stops at
        //   100 us, closed by Finish() at 100000 ns.
        Ptr<RoceNetDevice> b = net.link.b;
        Simulator::Schedule(MicroSeconds(10), &RoceNetDevice::SendPfc, b, 3, 1000);
        Simulator::Schedule(MicroSeconds(20), &RoceNetDevice::SendPfc, b, 3, 3);
        Simulator::Schedule(MicroSeconds(40), &RoceNetDevice::SendPfc, b, 3, 65535);
        Simulator::Stop(MicroSeconds(100));
        Simulator::Run();

        Time closedPaused = net.link.a->GetCounters(3).pausedTime;
        NS_TEST_ASSERT_MSG_EQ(closedPaused, NanoSeconds(5120 + 15), "device: two closed pauses");
        NS_TEST_ASSERT_MSG_EQ(net.link.a->IsPaused(3), true, "the third pause is still on");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalPausedTime(),
                              NanoSeconds(5120 + 15 + 100000 - 41006),
                              "open pause counted up to now");
        net.monitor.Finish();
        NS_TEST_ASSERT_MSG_EQ(net.monitor.WriteCounters(countersPath), true, "counters written");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalPauseFramesSent(), 3, "three pauses sent");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalPausedTime(),
                              NanoSeconds(5120 + 15 + 100000 - 41006),
                              "open pause counted up to the Finish time");
        Simulator::Destroy();
        // After Destroy the simulator's clock is gone; the Finish time still holds.
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalPausedTime(),
                              NanoSeconds(5120 + 15 + 100000 - 41006),
                              "still the Finish time after Simulator::Destroy");

        auto rows = ReadCsv(path);
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 4, "header and three intervals");
        NS_TEST_ASSERT_MSG_EQ(Join(rows[0]), "port,priority,start_ns,end_ns", "header");
        NS_TEST_ASSERT_MSG_EQ(Join(rows[1]), "a,3,11006,16126", "first pause");
        NS_TEST_ASSERT_MSG_EQ(Join(rows[2]), "a,3,21006,21021", "second pause");
        NS_TEST_ASSERT_MSG_EQ(Join(rows[3]), "a,3,41006,100000", "open pause closed at Finish");
        int64_t closedSum = 0;
        for (size_t i = 1; i <= 2; ++i)
        {
            closedSum += std::stoll(rows[i][3]) - std::stoll(rows[i][2]);
        }
        NS_TEST_ASSERT_MSG_EQ(closedSum,
                              closedPaused.GetNanoSeconds(),
                              "closed intervals add up to the device's pausedTime");

        auto counters = ReadCsv(countersPath);
        std::map<std::string, std::string> byPort;
        for (size_t i = 1; i < counters.size(); ++i)
        {
            byPort[counters[i][0] + "/" + counters[i][1]] = Join(counters[i]);
        }
        NS_TEST_ASSERT_MSG_EQ(byPort.size(), 2, "a/3 and b/3");
        NS_TEST_ASSERT_MSG_EQ(byPort["a/3"], "a,3,0,0,0,0,0,0,3,0,64129,0,0,0,0,0,0", "a/3");
        NS_TEST_ASSERT_MSG_EQ(byPort["b/3"], "b,3,0,0,0,0,3,0,0,0,0,0,0,0,0,0,0", "b/3");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Queue samples hold the bytes not yet on the wire, derived from the line rate; rows appear
 * only for non-empty or changed queues; the exact maximum sees a peak the sampler misses.
 */
class FabricMonitorQueueTestCase : public TestCase
{
  public:
    FabricMonitorQueueTestCase()
        : TestCase("Queue samples follow the line rate; the exact maximum sees every peak")
    {
    }

  private:
    void DoRun() override
    {
        // 40 frames of 988 bytes at t = 0, 100 Gb/s: frame j starts on the wire (and leaves
        // the queue) at j x 80.96 ns. Frame 0 starts at once, so the sample at 0 sees 39.
        // By 1 us frames 0-12 have started (12 x 80.96 = 971.52 ns, the 13th at 1052.48), by
        // 2 us 0-24 (1943.04), by 3 us 0-37 (2995.52), by 4 us all (39 x 80.96 = 3157.44):
        // 27, 15, 2 and 0 frames are left. The last frame arrives at B at 3157.44 + 80 +
        // 1000 ns, so the sampler also runs at 5 us (nothing to write: empty and unchanged),
        // then stops, as nothing else is left to happen.
        {
            std::string path = CreateTempDirFilename("fabric-monitor-queue.csv");
            MonitoredLink net("a", "b");
            NS_TEST_ASSERT_MSG_EQ(net.monitor.EnableQueueSampling(path, MicroSeconds(1)),
                                  true,
                                  "file opens");
            EnqueueFrames(net.link.a, 40, 988, 0, 0);
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(Simulator::Now(), NanoSeconds(5000), "sampler stopped at 5 us");
            net.monitor.Finish();
            NS_TEST_ASSERT_MSG_EQ(net.monitor.GetMaxQueueBytes(), 39 * 988, "largest sample");
            Simulator::Destroy();

            auto rows = ReadCsv(path);
            std::vector<std::string> expected = {
                "time_ns,port,priority,queue_bytes",
                "0,a,0,38532",    // 39 x 988
                "1000,a,0,26676", // 27 x 988
                "2000,a,0,14820", // 15 x 988
                "3000,a,0,1976",  // 2 x 988
                "4000,a,0,0",     // emptied since the last sample
            };
            NS_TEST_ASSERT_MSG_EQ(rows.size(), expected.size(), "one row per sample and header");
            for (size_t i = 0; i < expected.size() && i < rows.size(); ++i)
            {
                NS_TEST_ASSERT_MSG_EQ(Join(rows[i]), expected[i], "row " << i);
            }
        }
        // The same 40 frames enqueued at 0.5 us: the peak (39 frames, right after frame 0
        // started) falls between samples. At 1 us frames 0-6 have started (6 x 80.96 =
        // 485.76 ns after 0.5 us), 33 are left. Exact tracking sees 39 x 988; the sampler
        // alone sees 33 x 988.
        for (bool exact : {false, true})
        {
            MonitoredLink net("a");
            NS_TEST_ASSERT_MSG_EQ(net.monitor.GetMaxQueueBytes(), 0, "nothing seen yet");
            if (exact)
            {
                net.monitor.EnableMaxQueueTracking();
            }
            NS_TEST_ASSERT_MSG_EQ(
                net.monitor.EnableQueueSampling(CreateTempDirFilename("fabric-monitor-peak.csv"),
                                                MicroSeconds(1)),
                true,
                "file opens");
            Ptr<RoceNetDevice> a = net.link.a;
            ScheduleLambda(NanoSeconds(500), [a]() { EnqueueFrames(a, 40, 988, 0, 0); });
            Simulator::Run();
            net.monitor.Finish();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(net.monitor.GetMaxQueueBytes(),
                                  (exact ? 39 : 33) * 988,
                                  (exact ? "exact maximum" : "sampled maximum"));
        }
        // Exact tracking without sampling, with the queue still growing at the end (priority 2
        // paused by the peer): the maximum includes what is queued now.
        {
            MonitoredLink net("a");
            net.monitor.EnableMaxQueueTracking();
            net.link.b->SendPfc(2, 65535);
            Ptr<RoceNetDevice> a = net.link.a;
            ScheduleLambda(MicroSeconds(2), [a]() { EnqueueFrames(a, 5, 1000, 16, 2); });
            Simulator::Stop(MicroSeconds(3));
            Simulator::Run();
            NS_TEST_ASSERT_MSG_EQ(net.monitor.GetMaxQueueBytes(),
                                  5000,
                                  "paused queue, before Finish");
            net.monitor.Finish();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(net.monitor.GetMaxQueueBytes(), 5000, "and after");
        }
        // A host port refilled as each frame starts (an RDMA endpoint's PhyTxBegin sink,
        // connected before the monitor tracks): one frame waits while another is on the wire,
        // so the largest queue is one frame of 988 bytes. (The monitor once read the queue
        // from its own PhyTxBegin sink, after the refill, and added the frame on the wire:
        // 1976.)
        {
            MonitoredLink net("a");
            Ptr<RoceNetDevice> a = net.link.a;
            uint32_t refills = 5;
            a->TraceConnectWithoutContext(
                "PhyTxBegin",
                Callback<void, Ptr<const Packet>>([a, &refills](Ptr<const Packet>) {
                    if (refills > 0)
                    {
                        --refills;
                        a->Enqueue(MakeFrame(988, 0), 0, 0);
                    }
                }));
            net.monitor.EnableMaxQueueTracking();
            a->Enqueue(MakeFrame(988, 0), 0, 0);
            Simulator::Run();
            net.monitor.Finish();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(refills, 0, "the port was refilled five times");
            NS_TEST_ASSERT_MSG_EQ(net.monitor.GetMaxQueueBytes(), 988, "one frame waits");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The counters file has one row per port and priority with activity, matching the devices'
 * counters.
 */
class FabricMonitorCountersTestCase : public TestCase
{
  public:
    FabricMonitorCountersTestCase()
        : TestCase("Counter rows match the device counters")
    {
    }

  private:
    void DoRun() override
    {
        std::string path = CreateTempDirFilename("fabric-monitor-counters.csv");
        MonitoredLink net("hostA", "hostB");
        // 5 frames of 988 bytes in priority 0 (DSCP 0), 3 of 500 bytes in priority 5 (DSCP 40,
        // class selector 5); B pauses priority 3 of A for 100 quanta (512 ns) at 1 us and sends
        // a resume at 2 us, which arrives after the pause has expired.
        EnqueueFrames(net.link.a, 5, 988, 0, 0);
        EnqueueFrames(net.link.a, 3, 500, 40, 5);
        Ptr<RoceNetDevice> b = net.link.b;
        Simulator::Schedule(MicroSeconds(1), &RoceNetDevice::SendPfc, b, 3, 100);
        Simulator::Schedule(MicroSeconds(2), &RoceNetDevice::SendPfc, b, 3, 0);
        Simulator::Run();
        net.monitor.Finish();
        NS_TEST_ASSERT_MSG_EQ(net.monitor.WriteCounters(path), true, "written");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalPauseFramesSent(),
                              1,
                              "one pause (resumes aside)");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalDrops(), 0, "no switch, no drops");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalEcnMarks(), 0, "no switch, no marks");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetTotalPausedTime(), NanoSeconds(512), "100 quanta");
        Simulator::Destroy();

        auto rows = ReadCsv(path);
        NS_TEST_ASSERT_MSG_EQ(Join(rows.at(0)),
                              "port,priority,tx_frames,tx_bytes,rx_frames,rx_bytes,pauses_sent,"
                              "resumes_sent,pauses_received,resumes_received,paused_ns,ecn_marks,"
                              "drops_lossy_limit,drops_headroom_full,drops_buffer_full,"
                              "drops_no_route,drops_not_ipv4",
                              "header");
        std::map<std::string, std::vector<std::string>> byPort;
        for (size_t i = 1; i < rows.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(rows[i].size(), 17, "17 columns: " << Join(rows[i]));
            byPort[rows[i][0] + "/" + rows[i][1]] = rows[i];
        }
        NS_TEST_ASSERT_MSG_EQ(byPort.size(), 6, "six active port priorities");
        std::map<std::string, std::string> expected = {
            {"hostA/0", "hostA,0,5,4940,0,0,0,0,0,0,0,0,0,0,0,0,0"},
            {"hostA/3", "hostA,3,0,0,0,0,0,0,1,1,512,0,0,0,0,0,0"},
            {"hostA/5", "hostA,5,3,1500,0,0,0,0,0,0,0,0,0,0,0,0,0"},
            {"hostB/0", "hostB,0,0,0,5,4940,0,0,0,0,0,0,0,0,0,0,0"},
            {"hostB/3", "hostB,3,0,0,0,0,1,1,0,0,0,0,0,0,0,0,0"},
            {"hostB/5", "hostB,5,0,0,3,1500,0,0,0,0,0,0,0,0,0,0,0"},
        };
        for (const auto& [key, line] : expected)
        {
            NS_TEST_ASSERT_MSG_EQ(Join(byPort[key]), line, key);
        }
        // And field by field against the devices.
        for (const auto& [device, name] : {std::make_pair(net.link.a, std::string("hostA")),
                                           std::make_pair(net.link.b, std::string("hostB"))})
        {
            for (uint8_t p : {0, 3, 5})
            {
                const auto& row = byPort[name + "/" + std::to_string(p)];
                const RoceNetDevice::Counters& c = device->GetCounters(p);
                NS_TEST_ASSERT_MSG_EQ(std::stoull(row.at(2)), c.txFrames, name << " tx frames");
                NS_TEST_ASSERT_MSG_EQ(std::stoull(row.at(3)), c.txBytes, name << " tx bytes");
                NS_TEST_ASSERT_MSG_EQ(std::stoull(row.at(4)), c.rxFrames, name << " rx frames");
                NS_TEST_ASSERT_MSG_EQ(std::stoull(row.at(5)), c.rxBytes, name << " rx bytes");
                NS_TEST_ASSERT_MSG_EQ(std::stoull(row.at(6)), c.pausesSent, name << " pauses");
                NS_TEST_ASSERT_MSG_EQ(std::stoull(row.at(8)),
                                      c.pausesReceived,
                                      name << " pauses received");
                NS_TEST_ASSERT_MSG_EQ(std::stoll(row.at(10)),
                                      c.pausedTime.GetNanoSeconds(),
                                      name << " paused time");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A switch's ports are named after it and its drops appear in their rows and the totals.
 */
class FabricMonitorSwitchTestCase : public TestCase
{
  public:
    FabricMonitorSwitchTestCase()
        : TestCase("Switch ports are named after the switch and carry its drops")
    {
    }

  private:
    void DoRun() override
    {
        std::string path = CreateTempDirFilename("fabric-monitor-switch.csv");
        // Host h -- switch port 0; switch port 1 -- host g. The switch has no routes: an IPv4
        // frame is dropped as no-route, a non-IPv4 frame as not-ipv4, both on ingress port 0.
        Ptr<Node> switchNode = CreateObject<Node>();
        Ptr<RoceSwitch> sw = CreateObject<RoceSwitch>();
        switchNode->AggregateObject(sw);
        std::vector<Ptr<RoceNetDevice>> hosts;
        for (int i = 0; i < 2; ++i)
        {
            Ptr<RoceChannel> channel = CreateObject<RoceChannel>();
            Ptr<Node> hostNode = CreateObject<Node>();
            Ptr<RoceNetDevice> host = CreateObject<RoceNetDevice>();
            host->SetAddress(Mac48Address::Allocate());
            hostNode->AddDevice(host);
            host->Attach(channel);
            Ptr<RoceNetDevice> port = CreateObject<RoceNetDevice>();
            port->SetAddress(Mac48Address::Allocate());
            switchNode->AddDevice(port);
            port->Attach(channel);
            sw->AddPort(port);
            hosts.push_back(host);
        }
        FabricMonitor monitor;
        monitor.AddSwitch(sw, "leaf0");
        monitor.AddPort(hosts[0], "h");
        NS_TEST_ASSERT_MSG_EQ(monitor.GetNPorts(), 3, "two switch ports and a host");
        NS_TEST_ASSERT_MSG_EQ(monitor.GetPortName(0), "leaf0/0", "first switch port");
        NS_TEST_ASSERT_MSG_EQ(monitor.GetPortName(1), "leaf0/1", "second switch port");

        hosts[0]->Enqueue(MakeFrame(500, 0), 0, 0);
        Ptr<Packet> other = Create<Packet>(100);
        EthernetHeader eth(false);
        eth.SetSource(Mac48Address("02:00:00:00:00:01"));
        eth.SetDestination(Mac48Address("02:00:00:00:00:02"));
        eth.SetLengthType(0x86DD);
        other->AddHeader(eth);
        hosts[0]->Enqueue(other, 0, 0);
        Simulator::Run();
        monitor.Finish();
        NS_TEST_ASSERT_MSG_EQ(monitor.WriteCounters(path), true, "written");
        NS_TEST_ASSERT_MSG_EQ(monitor.GetTotalDrops(), 2, "two drops");
        NS_TEST_ASSERT_MSG_EQ(monitor.GetTotalEcnMarks(), 0, "no marks");
        Simulator::Destroy();

        auto rows = ReadCsv(path);
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 3, "header, leaf0/0 and h");
        if (rows.size() == 3)
        {
            NS_TEST_ASSERT_MSG_EQ(Join(rows[1]),
                                  "leaf0/0,0,0,0,2,614,0,0,0,0,0,0,0,0,0,1,1",
                                  "switch port 0: received and dropped");
            NS_TEST_ASSERT_MSG_EQ(Join(rows[2]), "h,0,2,614,0,0,0,0,0,0,0,0,0,0,0,0,0", "host");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Files that cannot be opened make the Enable methods and WriteCounters return false.
 */
class FabricMonitorBadPathTestCase : public TestCase
{
  public:
    FabricMonitorBadPathTestCase()
        : TestCase("An unwritable path is reported, not a crash")
    {
    }

  private:
    void DoRun() override
    {
        const std::string bad = "/nonexistent-dir/x.csv";
        MonitoredLink net("a");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.EnableQueueSampling(bad, MicroSeconds(1)),
                              false,
                              "sampling file");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.GetLastError().rfind(bad + ": ", 0),
                              0,
                              "error names the file: " << net.monitor.GetLastError());
        NS_TEST_ASSERT_MSG_EQ((net.monitor.GetLastError().size() > bad.size() + 2),
                              true,
                              "and a reason");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.EnablePauseIntervals(bad), false, "pause file");
        NS_TEST_ASSERT_MSG_EQ(net.monitor.WriteCounters(bad), false, "counters file");
        net.link.a->Enqueue(MakeFrame(988, 0), 0, 0);
        Simulator::Run();
        net.monitor.Finish();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(net.link.a->GetCounters(0).txFrames, 1, "the simulation ran anyway");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The FabricMonitor test suite.
 */
class FabricMonitorTestSuite : public TestSuite
{
  public:
    FabricMonitorTestSuite()
        : TestSuite("llm-fabric-fabric-monitor", Type::UNIT)
    {
        AddTestCase(new FabricMonitorPauseTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricMonitorQueueTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricMonitorCountersTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricMonitorSwitchTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FabricMonitorBadPathTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static FabricMonitorTestSuite g_fabricMonitorTestSuite;

} // namespace tests
} // namespace llmfabric
