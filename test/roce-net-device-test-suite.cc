/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/enum.h"
#include "ns3/ethernet-header.h"
#include "ns3/frame-prefix-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/member-hook.h"
#include "ns3/node.h"
#include "ns3/queue-size.h"
#include "ns3/roce-channel.h"
#include "ns3/roce-net-device.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <map>
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
 * Records, on a link from a to b, when frames start on a's wire (with their priority, as a
 * classifies them), when they arrive at b, and when a's priorities are paused and resumed.
 */
class Recorder
{
  public:
    /// @param link the link; the recorder must live until the simulation is destroyed.
    explicit Recorder(const Link& link)
        : classifier(link.a)
    {
        link.a->TraceConnectWithoutContext("PhyTxBegin", MakeCallback(&Recorder::TxBegin, this));
        link.b->TraceConnectWithoutContext("PhyRxEnd", MakeCallback(&Recorder::RxEnd, this));
        link.a->TraceConnectWithoutContext("PauseState", MakeCallback(&Recorder::PauseState, this));
    }

    /// @param frame a frame starting on the wire.
    void TxBegin(Ptr<const Packet> frame)
    {
        txTimes.push_back(Simulator::Now());
        txPriorities.push_back(classifier->Classify(frame));
    }

    /// @param frame a frame that has arrived.
    void RxEnd(Ptr<const Packet> frame)
    {
        rxTimes.push_back(Simulator::Now());
        rxSizes.push_back(frame->GetSize());
    }

    /**
     * @param priority a priority.
     * @param paused pause starts or ends.
     */
    void PauseState(uint8_t priority, bool paused)
    {
        pauseEvents.emplace_back(Simulator::Now(), paused);
    }

    Ptr<RoceNetDevice> classifier;                  //!< classifies what TxBegin sees
    std::vector<Time> txTimes;                      //!< wire start times
    std::vector<uint8_t> txPriorities;              //!< their priorities
    std::vector<Time> rxTimes;                      //!< arrival times
    std::vector<uint32_t> rxSizes;                  //!< sizes of the frames that arrived
    std::vector<std::pair<Time, bool>> pauseEvents; //!< pause state changes
};

/// What a port passes up to its node's stack.
class StackReceiver
{
  public:
    /// @param device a port whose received packets are recorded.
    void Watch(Ptr<RoceNetDevice> device)
    {
        device->SetReceiveCallback(MakeCallback(&StackReceiver::Deliver, this));
    }

    /**
     * The stack's receive callback.
     * @param device the port.
     * @param packet the packet, without its Ethernet header.
     * @param protocol its EtherType.
     * @param from the sender's address.
     * @return true (accepted).
     */
    bool Deliver(Ptr<NetDevice> device,
                 Ptr<const Packet> packet,
                 uint16_t protocol,
                 const Address& from)
    {
        sizes.push_back(packet->GetSize());
        lastProtocol = protocol;
        lastFrom = from;
        last = Simulator::Now();
        return true;
    }

    std::vector<uint32_t> sizes; //!< sizes passed up
    uint16_t lastProtocol{0};    //!< protocol of the last one
    Address lastFrom;            //!< source address of the last one
    Time last;                   //!< when the last one was
};

/**
 * A frame as the RDMA endpoint makes one: WriteEthernetHeader's 14 bytes in front of an IPv4
 * packet (DSCP 26: priority 3).
 * @param from the sending port.
 * @param to the destination address.
 * @param ipBytes the IPv4 packet's size.
 * @return the frame.
 */
Ptr<Packet>
Frame(Ptr<RoceNetDevice> from, Mac48Address to, uint32_t ipBytes)
{
    Ptr<Packet> p = MakeFrame(ipBytes + 14, 26);
    EthernetHeader eth(false);
    p->RemoveHeader(eth);
    FramePrefixHeader header(14);
    from->WriteEthernetHeader(header.GetBytes(), to, 0x0800);
    p->AddHeader(header);
    return p;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A frame's arrival is its serialization (preamble, frame, FCS) plus the propagation delay;
 * back-to-back frames keep the line rate without rounding drift; the delay adds exactly.
 */
class RoceDeviceTimingTestCase : public TestCase
{
  public:
    RoceDeviceTimingTestCase()
        : TestCase("Frames arrive after serialization plus delay and keep line rate back to back")
    {
    }

  private:
    void DoRun() override
    {
        // One 988-byte frame at 100 Gb/s: its last bit leaves (8 preamble + 988 + 4 FCS) =
        // 1000 bytes = 8000 bits / 1e11 b/s = 80 ns after it starts, and arrives 1 us later:
        // 1080 ns. The wire is free after 12 more bytes of gap: 1012 x 0.08 = 80.96 ns.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            Recorder rec(link);
            link.a->Enqueue(MakeFrame(988, 0), 0, 0);
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.size(), 1, "one frame arrives");
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[0], NanoSeconds(1080), "80 ns + 1 us");
            NS_TEST_ASSERT_MSG_EQ(link.a->GetWireTime(988),
                                  NanoSeconds(81),
                                  "988 B occupy 80.96 ns with gap, 81 ns rounded");
        }
        // 1000 such frames back to back: frame k starts at k x 80.96 ns (exactly, however the
        // events are rounded), so the last arrives at 999 x 80.96 + 80 + 1000 = 81959.04 ns,
        // 81959 ns at nanosecond resolution. Rounding each frame's 80.96 ns to 81 ns would give
        // 81999 ns: the test tells the two apart.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            Recorder rec(link);
            EnqueueFrames(link.a, 1000, 988, 0, 0);
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.size(), 1000, "all frames arrive");
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.back(), NanoSeconds(81959), "line rate kept");
            NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(0).txFrames, 1000, "counted");
            NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(0).txBytes, 988000, "bytes counted");
            NS_TEST_ASSERT_MSG_EQ(link.b->GetCounters(0).rxFrames, 1000, "received counted");
        }
        // The propagation delay adds exactly: 3 us instead of 1 us is 2000 ns later.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(3));
            Recorder rec(link);
            link.a->Enqueue(MakeFrame(988, 0), 0, 0);
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[0], NanoSeconds(3080), "80 ns + 3 us");
        }
        // Without preamble and gap, 25 Gb/s: (996 + 4) bytes x 8 / 25e9 = 320 ns, + 500 ns.
        {
            Link link = MakeLink(DataRate("25Gbps"), NanoSeconds(500));
            link.a->SetAttribute("CountPreambleAndGap", BooleanValue(false));
            Recorder rec(link);
            EnqueueFrames(link.a, 2, 996, 0, 0);
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[0], NanoSeconds(820), "320 ns + 500 ns");
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[1], NanoSeconds(1140), "the next 320 ns later");
        }
        // The Delay lowered with a frame on its way: each frame still arrives at its own time,
        // so the later one first. A 988-byte frame at time 0 over 10 us arrives at 80 + 10,000
        // = 10,080 ns; at 1 us the delay becomes 1 us and a 500-byte frame leaves: (8 + 500 +
        // 4) x 8 bits / 100 Gb/s = 40.96 ns, its end event rounded to 41 ns, so it arrives at
        // 1,000 + 41 + 1,000 = 2,041 ns, before the first.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(10));
            Recorder rec(link);
            Ptr<RoceNetDevice> a = link.a;
            a->Enqueue(MakeFrame(988, 0), 0, 0);
            ScheduleLambda(MicroSeconds(1), [a]() {
                a->GetChannel()->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
                a->Enqueue(MakeFrame(500, 0), 0, 0);
            });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(rec.rxSizes.size(), 2, "both frames arrive");
            NS_TEST_ASSERT_MSG_EQ(rec.rxSizes[0], 500, "the later frame first");
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[0], NanoSeconds(2041), "1,000 + 41 + 1,000 ns");
            NS_TEST_ASSERT_MSG_EQ(rec.rxSizes[1], 988, "then the first");
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes[1], NanoSeconds(10080), "80 + 10,000 ns");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A received PFC pause stops new frames of its priority for quanta x 512 bit times, a frame on
 * the wire completes, other priorities keep sending, and a zero-quanta frame resumes at once.
 */
class RoceDevicePfcTestCase : public TestCase
{
  public:
    RoceDevicePfcTestCase()
        : TestCase("PFC pauses one priority for quanta x 512 bit times; resume; others go on")
    {
    }

  private:
    void DoRun() override
    {
        // A sends 200 frames of priority 3 (DSCP 26) and 200 of priority 1 (DSCP 8), strict
        // priority; B pauses priority 3 for 1000 quanta at t = 2 us. At 100 Gb/s a quantum is
        // 512 bits = 5.12 ns, so 1000 quanta = 5120 ns.
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        Recorder rec(link);
        for (int k = 0; k < 200; ++k)
        {
            link.a->Enqueue(MakeFrame(988, 26), 3, 0);
            link.a->Enqueue(MakeFrame(988, 8), 1, 0);
        }
        Simulator::Schedule(MicroSeconds(2), &RoceNetDevice::SendPfc, link.b, 3, 1000);
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(rec.pauseEvents.size(), 2, "one pause start and one end");
        Time pausedAt = rec.pauseEvents[0].first;
        // The 60-byte PFC frame leaves B at 2 us: (8 + 60 + 4) x 0.08 = 5.76 ns on the wire,
        // + 1 us of propagation: it arrives at 3005.76 ns, 3006 ns at nanosecond resolution.
        NS_TEST_ASSERT_MSG_EQ(pausedAt, NanoSeconds(3006), "pause takes effect on arrival");
        NS_TEST_ASSERT_MSG_EQ(rec.pauseEvents[1].first - pausedAt,
                              NanoSeconds(5120),
                              "1000 quanta at 100 Gb/s last 5120 ns");
        // No priority-3 frame starts inside the pause; priority 1 fills the wire meanwhile.
        uint32_t p3Inside = 0;
        uint32_t p1Inside = 0;
        Time firstP3After;
        for (size_t i = 0; i < rec.txTimes.size(); ++i)
        {
            Time t = rec.txTimes[i];
            bool inside = t > pausedAt && t < pausedAt + NanoSeconds(5120);
            p3Inside += (inside && rec.txPriorities[i] == 3);
            p1Inside += (inside && rec.txPriorities[i] == 1);
            if (rec.txPriorities[i] == 3 && t >= pausedAt + NanoSeconds(5120) &&
                firstP3After.IsZero())
            {
                firstP3After = t;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(p3Inside, 0, "priority 3 starts nothing while paused");
        // 5120 ns / 80.96 ns per frame = 63.2: priority 1 keeps the wire busy (63 or 64 starts).
        NS_TEST_ASSERT_MSG_GT_OR_EQ(p1Inside, 63, "priority 1 keeps sending");
        // Priority 3 resumes with the first frame after the pause once the priority-1 frame on
        // the wire has finished: within one frame time (80.96 ns) of the expiry.
        NS_TEST_ASSERT_MSG_LT_OR_EQ(firstP3After - (pausedAt + NanoSeconds(5120)),
                                    NanoSeconds(81),
                                    "priority 3 resumes after the pause");
        NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).pausesReceived, 1, "one pause received");
        NS_TEST_ASSERT_MSG_EQ(link.b->GetCounters(3).pausesSent, 1, "one pause sent");
        NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).pausedTime, NanoSeconds(5120), "paused time");
        NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).txFrames, 200, "every frame still sent");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A zero-quanta PFC frame ends a pause at once, a frame on the wire when the pause arrives
 * completes, and a port with PfcEnabled false counts pauses but keeps sending.
 */
class RoceDevicePfcResumeTestCase : public TestCase
{
  public:
    RoceDevicePfcResumeTestCase()
        : TestCase("PFC zero quanta resumes at once; frame on the wire completes; PfcEnabled")
    {
    }

  private:
    void DoRun() override
    {
        for (bool enabled : {true, false})
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            link.a->SetAttribute("PfcEnabled", BooleanValue(enabled));
            Recorder rec(link);
            EnqueueFrames(link.a, 100, 988, 26, 3);
            // Pause for the longest time at 1 us (arrives at 2005.76 -> 2006 ns), resume at 3 us
            // (arrives at 4006 ns): priority 3 stops from 2006 to 4006 ns only.
            Simulator::Schedule(MicroSeconds(1), &RoceNetDevice::SendPfc, link.b, 3, 0xFFFF);
            Simulator::Schedule(MicroSeconds(3), &RoceNetDevice::SendPfc, link.b, 3, 0);
            Simulator::Run();
            Simulator::Destroy();
            Time lastBefore;
            Time firstAfter;
            for (Time t : rec.txTimes)
            {
                if (t <= NanoSeconds(2006))
                {
                    lastBefore = t;
                }
                else if (firstAfter.IsZero())
                {
                    firstAfter = t;
                }
            }
            NS_TEST_ASSERT_MSG_EQ(rec.rxTimes.size(), 100, "every frame arrives");
            if (enabled)
            {
                // Frames start every 80.96 ns: the one started at 24 x 80.96 = 1943.04 ns is
                // on the wire when the pause arrives and completes; the next waits for resume.
                NS_TEST_ASSERT_MSG_EQ(lastBefore, NanoSeconds(1943), "frame on the wire started");
                NS_TEST_ASSERT_MSG_EQ(firstAfter, NanoSeconds(4006), "resume restarts at once");
                NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).resumesReceived, 1, "resume counted");
            }
            else
            {
                NS_TEST_ASSERT_MSG_EQ(firstAfter - lastBefore,
                                      NanoSeconds(81),
                                      "a port ignoring PFC keeps its pace");
                NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).pausesReceived,
                                      1,
                                      "the ignored pause is still counted");
            }
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Queue high-water marks: the largest bytes one priority queue held since the mark began,
 * kept at each enqueue (a frame that finds the port idle counts for an instant), started at
 * the longest queue of the moment, several at once, one removed without touching the others.
 */
class RoceDeviceHighWaterTestCase : public TestCase
{
  public:
    RoceDeviceHighWaterTestCase()
        : TestCase("Queue high-water marks: per queue, from their start, several at once")
    {
    }

  private:
    void DoRun() override
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        Ptr<RoceNetDevice> a = link.a;
        uint32_t first = a->AddQueueHighWaterMark();
        // 10 frames of 988 bytes at 0: the first leaves at once, the other 9 wait (9 x 988 =
        // 8892); they are all gone by 10 x 80.96 ns = 809.6 ns.
        EnqueueFrames(a, 10, 988, 0, 0);
        uint32_t second = 0;
        uint32_t third = 0;
        uint32_t secondAt3us = 0;
        uint32_t firstAt3us = 0;
        uint32_t thirdAt3us = 0;
        // At 2 us the queues are empty: a second mark starts at 0. At 3 us, 4 frames of 500
        // bytes: the first leaves, 1500 bytes wait, and a third mark starts there.
        Simulator::Schedule(MicroSeconds(2), [&]() { second = a->AddQueueHighWaterMark(); });
        Simulator::Schedule(MicroSeconds(3), [&]() {
            EnqueueFrames(a, 4, 500, 40, 5);
            third = a->AddQueueHighWaterMark();
            thirdAt3us = a->GetQueueHighWaterMark(third);
            secondAt3us = a->GetQueueHighWaterMark(second);
            firstAt3us = a->GetQueueHighWaterMark(first);
            a->RemoveQueueHighWaterMark(first);
        });
        // At 5 us, 5 frames of 1000 bytes at priority 1 (one leaves, 4000 wait), then 2 at
        // priority 2 (2000 wait): the largest queue is 4000, not the 6000 waiting in all.
        Simulator::Schedule(MicroSeconds(5), [a]() {
            EnqueueFrames(a, 5, 1000, 8, 1);
            EnqueueFrames(a, 2, 1000, 16, 2);
        });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(firstAt3us, 9 * 988, "nine frames waited behind the first");
        NS_TEST_ASSERT_MSG_EQ(secondAt3us, 3 * 500, "a mark begun on empty queues");
        NS_TEST_ASSERT_MSG_EQ(thirdAt3us, 3 * 500, "a mark begins at the longest queue");
        NS_TEST_ASSERT_MSG_NE(second, first, "marks have their own identifiers");
        NS_TEST_ASSERT_MSG_EQ(a->GetQueueHighWaterMark(second), 4000, "one queue, not the sum");
        NS_TEST_ASSERT_MSG_EQ(a->GetQueueHighWaterMark(third), 4000, "and it grows from there");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Strict priority sends the highest priority first; DWRR shares the wire equally; the
 * classifier reads DSCP or PCP; Send() adds the Ethernet header and the peer's stack gets the
 * packet.
 */
class RoceDeviceSchedulingTestCase : public TestCase
{
  public:
    RoceDeviceSchedulingTestCase()
        : TestCase("Strict priority, DWRR shares, DSCP and PCP classification, Send() path")
    {
    }

  private:
    void DoRun() override
    {
        // Strict: 10 frames of priority 2 then 10 of priority 5, enqueued at once. The first
        // priority-2 frame grabs the idle wire; then all priority 5 go before the rest.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            Recorder rec(link);
            EnqueueFrames(link.a, 10, 500, 16, 2);
            EnqueueFrames(link.a, 10, 500, 40, 5);
            Simulator::Run();
            Simulator::Destroy();
            std::vector<uint8_t> expected{2, 5, 5, 5, 5, 5, 5, 5, 5, 5,
                                          5, 2, 2, 2, 2, 2, 2, 2, 2, 2};
            NS_TEST_ASSERT_MSG_EQ((rec.txPriorities == expected), true, "strict priority order");
        }
        // DWRR with a 1000-byte quantum: priorities 1 and 4, 500-byte frames, both backlogged:
        // each round gives each priority 1000 bytes = 2 frames, so the first 40 frames are
        // 20 + 20.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            link.a->SetAttribute("Scheduler", EnumValue(RoceNetDevice::DWRR));
            link.a->SetAttribute("DwrrQuantum", UintegerValue(1000));
            Recorder rec(link);
            for (int k = 0; k < 50; ++k)
            {
                link.a->Enqueue(MakeFrame(500, 8), 1, 0);
                link.a->Enqueue(MakeFrame(500, 32), 4, 0);
            }
            Simulator::Run();
            Simulator::Destroy();
            uint32_t p1 = 0;
            for (size_t i = 1; i < 41; ++i) // after the first frame, which found the wire idle
            {
                p1 += rec.txPriorities[i] == 1;
            }
            NS_TEST_ASSERT_MSG_EQ(p1, 20, "DWRR gives equal bytes to equal weights");
        }
        // Classification: DSCP 26 (AF31) -> 3, 48 (CS6) -> 6, 0 -> 0; an ARP frame -> default.
        {
            Ptr<RoceNetDevice> d = CreateObject<RoceNetDevice>();
            d->SetAttribute("DefaultPriority", UintegerValue(2));
            NS_TEST_ASSERT_MSG_EQ(+d->Classify(MakeFrame(100, 26)), 3, "AF31 is priority 3");
            NS_TEST_ASSERT_MSG_EQ(+d->Classify(MakeFrame(100, 48)), 6, "CS6 is priority 6");
            NS_TEST_ASSERT_MSG_EQ(+d->Classify(MakeFrame(100, 0)), 0, "best effort is 0");
            std::vector<uint8_t> arp = HexToBytes("ffffffffffff020000000001 0806 0001");
            NS_TEST_ASSERT_MSG_EQ(+d->ClassifyBytes(arp.data(), arp.size()), 2, "ARP: default");
            // 802.1Q tag 8100, TCI a064 = PCP 5 (101), DEI 0, VID 0x064; inner IPv4 TOS 0x68
            // (DSCP 26).
            std::vector<uint8_t> tagged =
                HexToBytes("020000000002 020000000001 8100 a064 0800 4568");
            NS_TEST_ASSERT_MSG_EQ(+d->ClassifyBytes(tagged.data(), tagged.size()),
                                  3,
                                  "DSCP mode reads the IPv4 header behind the tag");
            d->SetAttribute("Classifier", EnumValue(RoceNetDevice::PCP));
            NS_TEST_ASSERT_MSG_EQ(+d->ClassifyBytes(tagged.data(), tagged.size()),
                                  5,
                                  "PCP mode reads the tag");
            NS_TEST_ASSERT_MSG_EQ(+d->Classify(MakeFrame(100, 26)), 2, "untagged: default");
            d->Dispose();
        }
        // Send(): the stack's packet gets an Ethernet header, crosses, and B's stack receives
        // the 100-byte packet with protocol 0x0800.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            StackReceiver stack;
            stack.Watch(link.b);
            Ptr<Packet> p = MakeFrame(134, 26);
            EthernetHeader eth(false);
            p->RemoveHeader(eth);
            bool ok = link.a->Send(p, link.b->GetAddress(), 0x0800);
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(ok, true, "Send accepts the packet");
            NS_TEST_ASSERT_MSG_EQ(stack.sizes.size(), 1, "B's stack receives it");
            NS_TEST_ASSERT_MSG_EQ(stack.sizes[0], 120, "without the Ethernet header");
            NS_TEST_ASSERT_MSG_EQ(stack.lastProtocol, 0x0800, "as IPv4");
            NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).txFrames, 1, "classified as 3");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * SendFrame, the RDMA endpoint's path: a frame whose Ethernet header the sender wrote
 * (WriteEthernetHeader) crosses and reaches the peer's stack as Send's would; it is dropped,
 * with MacTxDrop and false, when what follows its Ethernet header exceeds the MTU or its
 * priority's queue would pass TxQueueLimit.
 */
class RoceDeviceSendFrameTestCase : public TestCase
{
  public:
    RoceDeviceSendFrameTestCase()
        : TestCase("SendFrame: a frame with its own Ethernet header, MTU and queue-limit drops")
    {
    }

  private:
    /**
     * Count a MacTxDrop.
     * @param drops the count.
     * @param frame the dropped frame.
     */
    static void CountDrop(uint32_t* drops, Ptr<const Packet> frame)
    {
        ++*drops;
    }

    void DoRun() override
    {
        // The header's bytes: destination, source (the port's own address), EtherType.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            uint8_t b[14];
            link.a->WriteEthernetHeader(b, Mac48Address::ConvertFrom(link.b->GetAddress()), 0x0800);
            uint8_t to[6];
            uint8_t own[6];
            Mac48Address::ConvertFrom(link.b->GetAddress()).CopyTo(to);
            Mac48Address::ConvertFrom(link.a->GetAddress()).CopyTo(own);
            NS_TEST_ASSERT_MSG_EQ(std::equal(to, to + 6, b), true, "destination first");
            NS_TEST_ASSERT_MSG_EQ(std::equal(own, own + 6, b + 6), true, "then the source");
            NS_TEST_ASSERT_MSG_EQ((b[12] << 8 | b[13]), 0x0800, "then the EtherType");
            Simulator::Destroy();
        }
        // A 120-byte IPv4 packet in a frame: B's stack gets 120 bytes of IPv4 from A's address,
        // and A counts one frame of priority 3 (DSCP 26), as for Send() above.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            StackReceiver stack;
            stack.Watch(link.b);
            Mac48Address b = Mac48Address::ConvertFrom(link.b->GetAddress());
            bool ok = link.a->SendFrame(Frame(link.a, b, 120));
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(ok, true, "SendFrame accepts the frame");
            NS_TEST_ASSERT_MSG_EQ(stack.sizes.size(), 1, "B's stack receives it");
            NS_TEST_ASSERT_MSG_EQ(stack.sizes[0], 120, "without the Ethernet header");
            NS_TEST_ASSERT_MSG_EQ(stack.lastProtocol, 0x0800, "as IPv4");
            NS_TEST_ASSERT_MSG_EQ((stack.lastFrom == link.a->GetAddress()), true, "from A");
            NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).txFrames, 1, "classified as 3");
        }
        // MTU 100: 100 bytes after the Ethernet header go, 101 do not.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            link.a->SetMtu(100);
            uint32_t drops = 0;
            link.a->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&CountDrop, &drops));
            Mac48Address b = Mac48Address::ConvertFrom(link.b->GetAddress());
            NS_TEST_ASSERT_MSG_EQ(link.a->SendFrame(Frame(link.a, b, 100)), true, "MTU fits");
            NS_TEST_ASSERT_MSG_EQ(link.a->SendFrame(Frame(link.a, b, 101)), false, "MTU + 1");
            NS_TEST_ASSERT_MSG_EQ(drops, 1, "one MacTxDrop");
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).txFrames, 1, "one frame sent");
        }
        // TxQueueLimit 300 B, 134-byte frames sent at once: the first takes the idle wire, the
        // second and third wait (268 B), the fourth would make 402 B and is dropped.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            link.a->SetAttribute("TxQueueLimit", QueueSizeValue(QueueSize("300B")));
            uint32_t drops = 0;
            link.a->TraceConnectWithoutContext("MacTxDrop", MakeBoundCallback(&CountDrop, &drops));
            Mac48Address b = Mac48Address::ConvertFrom(link.b->GetAddress());
            std::vector<bool> accepted;
            for (int k = 0; k < 4; ++k)
            {
                accepted.push_back(link.a->SendFrame(Frame(link.a, b, 120)));
            }
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ((accepted == std::vector<bool>{true, true, true, false}),
                                  true,
                                  "the fourth frame passes the limit");
            NS_TEST_ASSERT_MSG_EQ(drops, 1, "one MacTxDrop");
            NS_TEST_ASSERT_MSG_EQ(link.a->GetCounters(3).txFrames, 3, "three frames sent");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * TxStartCallback: called once at each frame's start on the wire, data and PFC frames, before
 * the PhyTxBegin sinks (so that they see the port as the RDMA endpoint, which refills it from
 * this callback, leaves it), and not at all once removed.
 */
class RoceDeviceTxStartTestCase : public TestCase
{
  public:
    RoceDeviceTxStartTestCase()
        : TestCase("TxStartCallback: once per frame start, before the PhyTxBegin sinks")
    {
    }

  private:
    /**
     * @param log where to write.
     */
    static void Start(std::string* log)
    {
        *log += "S";
    }

    /**
     * @param log where to write.
     * @param frame the frame.
     */
    static void Begin(std::string* log, Ptr<const Packet> frame)
    {
        *log += "B";
    }

    void DoRun() override
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        std::string log;
        link.a->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Begin, &log));
        link.a->SetTxStartCallback(MakeBoundCallback(&Start, &log));
        EnqueueFrames(link.a, 3, 988, 0, 0);
        Simulator::Run();
        link.a->SendPfc(3, 100);
        Simulator::Run();
        link.a->SetTxStartCallback(RoceNetDevice::TxStartCallback());
        EnqueueFrames(link.a, 2, 988, 0, 0);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(log, "SBSBSBSBBB", "three data frames and a PFC frame, then none");
    }
};

/**
 * @ingroup llm-fabric-tests
 * MemberHook and the port's hooks: a hook calls its object's member function with the arguments
 * as given (a reference argument can be changed, a result comes back); the port calls the
 * receiver set last, hook or callback, with itself as the port, and none once a null one is set.
 */
class RoceDeviceHookTestCase : public TestCase
{
  public:
    RoceDeviceHookTestCase()
        : TestCase("Hooks: the member function called; hook or callback, the one set last")
    {
    }

  private:
    /// A receiver of the port's TxStart and Dequeue hooks.
    struct Receiver
    {
        /// A frame started.
        void Start()
        {
            ++starts;
        }

        /**
         * A frame left its queue.
         * @param port the port.
         * @param frame the frame.
         * @param priority its priority.
         * @param tag its tag.
         * @param ttlDebt its TTL debt.
         */
        void Dequeued(RoceNetDevice& port,
                      const Ptr<Packet>& frame,
                      uint8_t priority,
                      uint64_t tag,
                      uint8_t& ttlDebt)
        {
            ports.push_back(&port);
            priorities.push_back(priority);
            sizes.push_back(frame->GetSize());
        }

        /**
         * @param x a number to add one to.
         * @return whether it is above 1 then.
         */
        bool Increment(int& x)
        {
            ++x;
            return x > 1;
        }

        int starts{0};                     //!< Start calls
        std::vector<RoceNetDevice*> ports; //!< the port of each Dequeued call
        std::vector<uint8_t> priorities;   //!< the priority of each
        std::vector<uint32_t> sizes;       //!< the frame size of each
    };

    /**
     * @param n a count to increment.
     */
    static void CallbackStart(int* n)
    {
        ++*n;
    }

    void DoRun() override
    {
        Receiver r;
        MemberHook<bool(int&)> increment = MemberHook<bool(int&)>::Bind<&Receiver::Increment>(&r);
        NS_TEST_EXPECT_MSG_EQ(MemberHook<bool(int&)>().IsNull(), true, "a default hook is null");
        NS_TEST_EXPECT_MSG_EQ(increment.IsNull(), false, "a bound hook is not");
        int x = 0;
        NS_TEST_EXPECT_MSG_EQ(increment(x), false, "0 + 1 is not above 1");
        NS_TEST_EXPECT_MSG_EQ(increment(x), true, "1 + 1 is");
        NS_TEST_EXPECT_MSG_EQ(x, 2, "the reference argument changed twice");

        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        int callbackStarts = 0;
        link.a->SetTxStartHook(RoceNetDevice::TxStartHook::Bind<&Receiver::Start>(&r));
        link.a->SetDequeueHook(RoceNetDevice::DequeueHook::Bind<&Receiver::Dequeued>(&r));
        EnqueueFrames(link.a, 3, 988, 0, 5);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(r.starts, 3, "the hook at each of three frame starts");
        NS_TEST_EXPECT_MSG_EQ(r.ports.size(), 3, "three dequeues");
        NS_TEST_EXPECT_MSG_EQ((r.ports == std::vector<RoceNetDevice*>(3, PeekPointer(link.a))),
                              true,
                              "the port itself");
        NS_TEST_EXPECT_MSG_EQ((r.priorities == std::vector<uint8_t>(3, 5)), true, "priority 5");
        NS_TEST_EXPECT_MSG_EQ(r.sizes.front(), link.a->GetCounters(5).txBytes / 3, "the frame");

        // A callback replaces the hook, and a hook the callback.
        link.a->SetTxStartCallback(MakeBoundCallback(&CallbackStart, &callbackStarts));
        EnqueueFrames(link.a, 2, 988, 0, 5);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(r.starts, 3, "the hook replaced");
        NS_TEST_EXPECT_MSG_EQ(callbackStarts, 2, "by the callback");
        link.a->SetTxStartHook(RoceNetDevice::TxStartHook::Bind<&Receiver::Start>(&r));
        EnqueueFrames(link.a, 1, 988, 0, 5);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(r.starts, 4, "the hook back");
        NS_TEST_EXPECT_MSG_EQ(callbackStarts, 2, "the callback replaced");

        // Null hooks remove the receivers.
        link.a->SetTxStartHook(RoceNetDevice::TxStartHook());
        link.a->SetDequeueHook(RoceNetDevice::DequeueHook());
        EnqueueFrames(link.a, 2, 988, 0, 5);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(r.starts, 4, "no start hook");
        NS_TEST_EXPECT_MSG_EQ(r.ports.size(), 6, "dequeues up to the null hook");
        NS_TEST_EXPECT_MSG_EQ(link.a->GetCounters(5).txFrames, 8, "every frame sent");
    }
};

/**
 * @ingroup llm-fabric-tests
 * HostFrameReceiveCallback: a frame to the port's own address goes whole (Ethernet header
 * included, its first bytes as they arrived) to the host-frame receiver and not to the stack;
 * a broadcast frame, a frame the receiver declines (it returns false), and any frame while a
 * MacRx sink or a promiscuous callback is connected go to the stack as before, without their
 * Ethernet header; SetReceiveCallback removes the host-frame receiver.
 */
class RoceDeviceHostFrameTestCase : public TestCase
{
  public:
    RoceDeviceHostFrameTestCase()
        : TestCase("Host-frame receiver: own-address frames whole, unless something else looks")
    {
    }

  private:
    /// The host-frame receiver.
    struct HostReceiver
    {
        /**
         * @param device the port.
         * @param frame the frame.
         * @param head its first bytes.
         * @param headBytes how many.
         * @param ttlDebt deferred TTL decrements.
         * @return take.
         */
        bool Take(const Ptr<RoceNetDevice>& device,
                  const Ptr<Packet>& frame,
                  const uint8_t* head,
                  uint32_t headBytes,
                  uint8_t ttlDebt)
        {
            sizes.push_back(frame->GetSize());
            std::vector<uint8_t> bytes(headBytes);
            frame->CopyData(bytes.data(), headBytes);
            headsMatch = headsMatch && std::equal(bytes.begin(), bytes.end(), head);
            return take;
        }

        std::vector<uint32_t> sizes; //!< sizes of the frames it got
        bool headsMatch{true};       //!< every head was the frame's first bytes
        bool take{true};             //!< what it answers
    };

    /// A MacRx sink.
    static void Sink(Ptr<const Packet>)
    {
    }

    /**
     * A promiscuous callback.
     * @return true.
     */
    static bool Promisc(Ptr<NetDevice>,
                        Ptr<const Packet>,
                        uint16_t,
                        const Address&,
                        const Address&,
                        NetDevice::PacketType)
    {
        return true;
    }

    void DoRun() override
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        StackReceiver stack;
        stack.Watch(link.b);
        HostReceiver host;
        link.b->SetHostFrameReceiveCallback(MakeCallback(&HostReceiver::Take, &host));
        Mac48Address b = Mac48Address::ConvertFrom(link.b->GetAddress());
        auto send = [&link](Mac48Address to) {
            link.a->SendFrame(Frame(link.a, to, 120));
            Simulator::Run();
        };
        send(b);
        NS_TEST_ASSERT_MSG_EQ(host.sizes.size(), 1, "a frame to B goes to the host receiver");
        NS_TEST_EXPECT_MSG_EQ(host.sizes[0], 134, "whole: 14 + 120 bytes");
        NS_TEST_EXPECT_MSG_EQ(host.headsMatch, true, "with its first bytes");
        NS_TEST_EXPECT_MSG_EQ(stack.sizes.size(), 0, "and not to the stack");
        send(Mac48Address::GetBroadcast());
        NS_TEST_EXPECT_MSG_EQ(host.sizes.size(), 1, "a broadcast frame does not");
        NS_TEST_ASSERT_MSG_EQ(stack.sizes.size(), 1, "it goes to the stack");
        NS_TEST_EXPECT_MSG_EQ(stack.sizes[0], 120, "without its Ethernet header");
        host.take = false;
        send(b);
        NS_TEST_EXPECT_MSG_EQ(host.sizes.size(), 2, "a declined frame is offered");
        NS_TEST_ASSERT_MSG_EQ(stack.sizes.size(), 2, "then goes to the stack");
        NS_TEST_EXPECT_MSG_EQ(stack.sizes[1], 120, "as usual");
        host.take = true;
        link.b->TraceConnectWithoutContext("MacRx", MakeCallback(&Sink));
        send(b);
        NS_TEST_EXPECT_MSG_EQ(host.sizes.size(), 2, "with a MacRx sink, not offered");
        NS_TEST_EXPECT_MSG_EQ(stack.sizes.size(), 3, "the stack gets it");
        link.b->TraceDisconnectWithoutContext("MacRx", MakeCallback(&Sink));
        send(b);
        NS_TEST_EXPECT_MSG_EQ(host.sizes.size(), 3, "the sink gone, offered again");
        link.b->SetPromiscReceiveCallback(MakeCallback(&Promisc));
        send(b);
        NS_TEST_EXPECT_MSG_EQ(host.sizes.size(), 3, "with a promiscuous callback, not offered");
        NS_TEST_EXPECT_MSG_EQ(stack.sizes.size(), 4, "the stack gets it");
        link.b->SetPromiscReceiveCallback(NetDevice::PromiscReceiveCallback());
        stack.Watch(link.b); // SetReceiveCallback again
        send(b);
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(host.sizes.size(), 3, "a new stack receiver removes it");
        NS_TEST_EXPECT_MSG_EQ(stack.sizes.size(), 5, "the stack gets it");
    }
};

/**
 * @ingroup llm-fabric-tests
 * What the port hands its node for a received frame, judged on the destination's bytes as
 * IEEE 802.3 and ns-3's Mac48Address judge an address: its own address is PACKET_HOST, all
 * ones PACKET_BROADCAST, another address with the group bit (the first byte's lowest bit)
 * PACKET_MULTICAST, any other PACKET_OTHERHOST, which only the promiscuous callback sees. Both
 * callbacks get the sender's address as a Mac48Address (Address::IsMatchingType), the
 * promiscuous one the destination too. A port readdressed by SetAddress or by its Address
 * attribute takes frames to its new address and not to its old one.
 */
class RoceDeviceDeliverTestCase : public TestCase
{
  public:
    RoceDeviceDeliverTestCase()
        : TestCase("Received frames: host, broadcast, multicast, other host; readdressed ports")
    {
    }

  private:
    /// What the promiscuous callback got.
    struct Seen
    {
        NetDevice::PacketType type; //!< the packet type
        Address from;               //!< the source
        Address to;                 //!< the destination
    };

    /**
     * The promiscuous callback.
     * @param seen where to record.
     * @param device the port.
     * @param packet the packet, without its Ethernet header.
     * @param protocol its EtherType.
     * @param from the source.
     * @param to the destination.
     * @param type the packet type.
     * @return true.
     */
    static bool Promisc(std::vector<Seen>* seen,
                        Ptr<NetDevice> device,
                        Ptr<const Packet> packet,
                        uint16_t protocol,
                        const Address& from,
                        const Address& to,
                        NetDevice::PacketType type)
    {
        seen->push_back({type, from, to});
        return true;
    }

    /**
     * Send one 120-byte IPv4 packet in a frame from A to an address, and run.
     * @param link the link.
     * @param to the destination address.
     */
    static void SendTo(const Link& link, Mac48Address to)
    {
        link.a->SendFrame(Frame(link.a, to, 120));
        Simulator::Run();
    }

    void DoRun() override
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        StackReceiver stack;
        stack.Watch(link.b);
        std::vector<Seen> seen;
        link.b->SetPromiscReceiveCallback(MakeBoundCallback(&Promisc, &seen));
        Mac48Address a = Mac48Address::ConvertFrom(link.a->GetAddress());
        Mac48Address b = Mac48Address::ConvertFrom(link.b->GetAddress());
        Mac48Address group("01:00:5e:00:00:01");
        Mac48Address other("02:00:00:00:00:99");
        SendTo(link, b);
        SendTo(link, Mac48Address::GetBroadcast());
        SendTo(link, group);
        SendTo(link, other);
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 4, "the promiscuous callback sees every frame");
        NS_TEST_EXPECT_MSG_EQ(seen[0].type, NetDevice::PACKET_HOST, "to B");
        NS_TEST_EXPECT_MSG_EQ(seen[1].type, NetDevice::PACKET_BROADCAST, "to all");
        NS_TEST_EXPECT_MSG_EQ(seen[2].type, NetDevice::PACKET_MULTICAST, "to a group");
        NS_TEST_EXPECT_MSG_EQ(seen[3].type, NetDevice::PACKET_OTHERHOST, "to another host");
        std::vector<Mac48Address> destinations{b, Mac48Address::GetBroadcast(), group, other};
        for (size_t k = 0; k < seen.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(Mac48Address::IsMatchingType(seen[k].from), true, "a MAC");
            NS_TEST_EXPECT_MSG_EQ(Mac48Address::ConvertFrom(seen[k].from), a, "from A");
            NS_TEST_EXPECT_MSG_EQ(Mac48Address::ConvertFrom(seen[k].to),
                                  destinations[k],
                                  "to where it was sent");
        }
        NS_TEST_ASSERT_MSG_EQ(stack.sizes.size(), 3, "the stack: all but the other host's");
        NS_TEST_EXPECT_MSG_EQ(Mac48Address::IsMatchingType(stack.lastFrom), true, "a MAC");
        NS_TEST_EXPECT_MSG_EQ(Mac48Address::ConvertFrom(stack.lastFrom), a, "from A");

        // Readdressed: by SetAddress, then by the Address attribute.
        Mac48Address renamed("02:00:00:00:00:77");
        link.b->SetAddress(renamed);
        SendTo(link, renamed);
        SendTo(link, b);
        Mac48Address again("02:00:00:00:00:78");
        link.b->SetAttribute("Address", Mac48AddressValue(again));
        SendTo(link, again);
        SendTo(link, renamed);
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(seen.size(), 8, "four more frames");
        NS_TEST_EXPECT_MSG_EQ(seen[4].type, NetDevice::PACKET_HOST, "its new address");
        NS_TEST_EXPECT_MSG_EQ(seen[5].type, NetDevice::PACKET_OTHERHOST, "its old address");
        NS_TEST_EXPECT_MSG_EQ(seen[6].type, NetDevice::PACKET_HOST, "the attribute's address");
        NS_TEST_EXPECT_MSG_EQ(seen[7].type, NetDevice::PACKET_OTHERHOST, "the one before");
        NS_TEST_EXPECT_MSG_EQ(stack.sizes.size(), 5, "the stack: the two to its address");
    }
};

/**
 * @ingroup llm-fabric-tests
 * A frame's end gets a scheduler event only when a frame is queued behind it (or PhyTxEnd has
 * a sink); EveryFrameEndEvent gives every frame one. Either way a frame queued during a
 * transmission starts exactly when the wire frees, strict priority and PFC hold what they
 * held, and a PFC frame a dequeue callback sends on the same port waits for the frame leaving.
 */
class RoceDeviceFrameEndTestCase : public TestCase
{
  public:
    RoceDeviceFrameEndTestCase()
        : TestCase("A frame's end costs an event only when a frame waits; timing, priority, PFC")
    {
    }

  private:
    /**
     * Record a frame's start (PhyTxBegin) or end (PhyTxEnd): the time and the size.
     * @param log the record.
     * @param frame the frame.
     */
    static void Log(std::vector<std::pair<Time, uint32_t>>* log, Ptr<const Packet> frame)
    {
        log->emplace_back(Simulator::Now(), frame->GetSize());
    }

    /**
     * Send the PFC frame of a dequeue callback on the port the frame leaves by, once.
     * @param sent whether it was sent already.
     * @param port the port.
     * @param frame the frame leaving.
     * @param priority its priority.
     * @param tag its tag.
     * @param ttlDebt its deferred TTL decrements.
     */
    static void PauseOnDequeue(bool* sent,
                               const Ptr<RoceNetDevice>& port,
                               const Ptr<Packet>& frame,
                               uint8_t priority,
                               uint64_t tag,
                               uint8_t& ttlDebt)
    {
        if (!*sent)
        {
            *sent = true;
            port->SendPfc(3, 100);
        }
    }

    /**
     * @param everyEnd EveryFrameEndEvent.
     * @param count frames of 988 bytes queued at once on an idle 100 Gb/s port.
     * @return the scheduler events the run took.
     */
    static uint64_t EventsBackToBack(bool everyEnd, uint32_t count)
    {
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        link.a->SetAttribute("EveryFrameEndEvent", BooleanValue(everyEnd));
        EnqueueFrames(link.a, count, 988, 0, 0);
        Simulator::Run();
        uint64_t events = Simulator::GetEventCount();
        Simulator::Destroy();
        return events;
    }

    void DoRun() override
    {
        // Events: a lone frame costs its arrival; with EveryFrameEndEvent, its end as well.
        // 1000 frames queued at once: the first 999 ends find the next frame waiting (999 end
        // events), the last finds none: 1000 arrivals + 999 = 1999 (2000 with every end).
        // Counted above what a link takes with no frame (its nodes' start-up events).
        const uint64_t base = EventsBackToBack(false, 0);
        NS_TEST_ASSERT_MSG_EQ(EventsBackToBack(false, 1) - base, 1, "a lone frame: its arrival");
        NS_TEST_ASSERT_MSG_EQ(EventsBackToBack(true, 1) - base, 2, "and its end, if asked");
        NS_TEST_ASSERT_MSG_EQ(EventsBackToBack(false, 1000) - base,
                              1999,
                              "999 ends with a successor");
        NS_TEST_ASSERT_MSG_EQ(EventsBackToBack(true, 1000) - base, 2000, "every end, if asked");

        // Timing. A 988-byte frame at t = 0 occupies the wire 80.96 ns with its gap (see the
        // timing case) and gets no end event. One queued at 40 ns, while A is on the wire,
        // starts exactly at 80.96 ns: its last bit leaves at 160.96 ns and arrives at
        // 1160.96 ns, 1161 ns at nanosecond resolution. One queued at 300 ns finds the wire
        // idle and arrives at 300 + 80 + 1000 = 1380 ns. Events: the 2 of the test, 3
        // arrivals and 1 end (the one the frame queued at 40 ns waited for).
        for (bool everyEnd : {false, true})
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            link.a->SetAttribute("EveryFrameEndEvent", BooleanValue(everyEnd));
            Recorder rec(link);
            Ptr<RoceNetDevice> a = link.a;
            a->Enqueue(MakeFrame(988, 0), 0, 0);
            ScheduleLambda(NanoSeconds(40), [a]() { a->Enqueue(MakeFrame(988, 0), 0, 0); });
            ScheduleLambda(NanoSeconds(300), [a]() { a->Enqueue(MakeFrame(988, 0), 0, 0); });
            Simulator::Run();
            uint64_t events = Simulator::GetEventCount();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(
                (rec.rxTimes ==
                 std::vector<Time>{NanoSeconds(1080), NanoSeconds(1161), NanoSeconds(1380)}),
                true,
                "arrivals at 1080, 1161 and 1380 ns");
            NS_TEST_ASSERT_MSG_EQ(events - base,
                                  (everyEnd ? 8U : 6U),
                                  "2 + 3 arrivals + 1 (or 3) ends");
        }

        // Strict priority: a priority-0 frame takes the idle wire at t = 0 (no end event);
        // priority 2 is queued at 10 ns, then priority 5 at 20 ns: at the end, 5 goes first.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            Recorder rec(link);
            Ptr<RoceNetDevice> a = link.a;
            a->Enqueue(MakeFrame(988, 0), 0, 0);
            ScheduleLambda(NanoSeconds(10), [a]() { a->Enqueue(MakeFrame(988, 16), 2, 0); });
            ScheduleLambda(NanoSeconds(20), [a]() { a->Enqueue(MakeFrame(988, 40), 5, 0); });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ((rec.txPriorities == std::vector<uint8_t>{0, 5, 2}),
                                  true,
                                  "the higher priority queued later goes first");
        }

        // PFC, at 1 Gb/s (8 ns a byte). A's 988-byte priority-3 frame starts at 0 and frees
        // the wire at (1000 + 12) x 8 = 8096 ns, with no end event. B pauses priority 3 at 0:
        // its 60-byte PFC frame takes (8 + 60 + 4) x 8 = 576 ns and 1 us to arrive, 1576 ns;
        // 100 quanta of 512 bit times are 51200 ns, to 52776 ns. A priority-3 frame queued at
        // 2 us waits for the pause's end; a priority-1 frame queued at 3 us goes at 8096 ns.
        {
            Link link = MakeLink(DataRate("1Gbps"), MicroSeconds(1));
            Recorder rec(link);
            Ptr<RoceNetDevice> a = link.a;
            a->Enqueue(MakeFrame(988, 26), 3, 0);
            Simulator::Schedule(Seconds(0), &RoceNetDevice::SendPfc, link.b, 3, 100);
            ScheduleLambda(MicroSeconds(2), [a]() { a->Enqueue(MakeFrame(988, 26), 3, 0); });
            ScheduleLambda(MicroSeconds(3), [a]() { a->Enqueue(MakeFrame(988, 8), 1, 0); });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(
                (rec.txTimes ==
                 std::vector<Time>{NanoSeconds(0), NanoSeconds(8096), NanoSeconds(52776)}),
                true,
                "priority 1 at the wire's end, priority 3 at the pause's");
            NS_TEST_ASSERT_MSG_EQ((rec.txPriorities == std::vector<uint8_t>{3, 1, 3}),
                                  true,
                                  "in that order");
        }

        // A dequeue callback that sends a PFC frame out of the port the frame leaves by (a
        // switch resuming a port): the PFC frame waits for the 988-byte frame, and starts at
        // its gap's end, 80.96 ns, in the event at 81 ns. It never shares the wire.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            bool sent = false;
            link.a->SetDequeueCallback(MakeBoundCallback(&PauseOnDequeue, &sent));
            std::vector<std::pair<Time, uint32_t>> starts;
            link.a->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Log, &starts));
            link.a->Enqueue(MakeFrame(988, 26), 3, 0);
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(starts.size(), 2, "the frame and the PFC frame");
            NS_TEST_ASSERT_MSG_EQ(starts[0].second, 988, "the frame first, at once");
            NS_TEST_ASSERT_MSG_EQ(starts[0].first, NanoSeconds(0), "at 0");
            NS_TEST_ASSERT_MSG_EQ(starts[1].second, 60, "then the PFC frame");
            NS_TEST_ASSERT_MSG_EQ(starts[1].first, NanoSeconds(81), "when the wire frees");
        }

        // A PhyTxEnd sink still sees every frame's end: frames queued at 0, 1 us and 2 us on an
        // idle port end (with their gap) at 80.96 ns after each start, in events at 81 ns,
        // 1081 ns and 2081 ns.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            std::vector<std::pair<Time, uint32_t>> ends;
            link.a->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&Log, &ends));
            Ptr<RoceNetDevice> a = link.a;
            a->Enqueue(MakeFrame(988, 0), 0, 0);
            ScheduleLambda(MicroSeconds(1), [a]() { a->Enqueue(MakeFrame(988, 0), 0, 0); });
            ScheduleLambda(MicroSeconds(2), [a]() { a->Enqueue(MakeFrame(988, 0), 0, 0); });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(ends.size(), 3, "three ends traced");
            NS_TEST_ASSERT_MSG_EQ((ends.size() == 3 && ends[0].first == NanoSeconds(81) &&
                                   ends[1].first == NanoSeconds(1081) &&
                                   ends[2].first == NanoSeconds(2081)),
                                  true,
                                  "at 81, 1081 and 2081 ns");
        }

        // A PhyTxEnd sink connected while a frame with no end event is on the wire: a frame
        // queued at 20 ns gets that end scheduled late (81 ns), which has no frame to trace and
        // traces none; the queued frame, started at 80.96 ns with the sink there, is traced at
        // its end, 161.92 ns, in the event at 162 ns.
        {
            Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
            std::vector<std::pair<Time, uint32_t>> ends;
            Ptr<RoceNetDevice> a = link.a;
            a->Enqueue(MakeFrame(988, 0), 0, 0);
            ScheduleLambda(NanoSeconds(10), [a, &ends]() {
                a->TraceConnectWithoutContext("PhyTxEnd", MakeBoundCallback(&Log, &ends));
            });
            ScheduleLambda(NanoSeconds(20), [a]() { a->Enqueue(MakeFrame(988, 0), 0, 0); });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(ends.size(), 1, "only the frame that started with the sink");
            NS_TEST_ASSERT_MSG_EQ(ends[0].first, NanoSeconds(162), "at its end");
            NS_TEST_ASSERT_MSG_EQ(ends[0].second, 988, "with its bytes");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * A host whose receive side drains slower than the link pauses its peer with PFC: nothing is
 * lost, the buffer stays within threshold plus headroom, and delivery runs at the drain rate.
 */
class RoceDeviceHostPfcTestCase : public TestCase
{
  public:
    RoceDeviceHostPfcTestCase()
        : TestCase("Host receive side slower than the link pauses the peer, loses nothing")
    {
    }

  private:
    void DoRun() override
    {
        // A sends 500 frames of 988 bytes at 100 Gb/s; B's host takes them at 50 Gb/s, pauses
        // A above 30000 bytes and resumes at 20000.
        Link link = MakeLink(DataRate("100Gbps"), MicroSeconds(1));
        link.b->SetAttribute("RxDrainRate", DataRateValue(DataRate("50Gbps")));
        link.b->SetAttribute("RxXoffThreshold", QueueSizeValue(QueueSize("30000B")));
        link.b->SetAttribute("RxXonThreshold", QueueSizeValue(QueueSize("20000B")));
        StackReceiver stack;
        stack.Watch(link.b);
        link.b->SetAddress(Mac48Address("02:00:00:00:00:02")); // where MakeFrame sends
        EnqueueFrames(link.a, 500, 988, 26, 3);
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(stack.sizes.size(), 500, "every frame reaches B's stack");
        NS_TEST_ASSERT_MSG_GT(link.b->GetCounters(3).pausesSent, 0, "B paused A");
        NS_TEST_ASSERT_MSG_EQ(link.b->GetCounters(3).resumesSent,
                              link.b->GetCounters(3).pausesSent,
                              "every pause was lifted (no refresh needed: drains are fast)");
        NS_TEST_ASSERT_MSG_GT(link.a->GetCounters(3).pausedTime, Time(0), "A was paused");
        // Above XOFF the pause needs (8 + 60 + 4) x 0.08 ns + 1 us to reach A, A finishes the
        // frame on the wire, and what A sent meanwhile is still in flight for 1 us: at most
        // 2 x 1 us x 100 Gb/s = 25000 bytes plus two frames arrive after the crossing (less
        // what drains meanwhile). Bound: 30000 + 25000 + 2 x 988 = 56976 bytes.
        NS_TEST_ASSERT_MSG_GT(link.b->GetMaxRxBufferBytes(), 30000, "the buffer passed XOFF");
        NS_TEST_ASSERT_MSG_LT_OR_EQ(link.b->GetMaxRxBufferBytes(), 56976, "headroom suffices");
        // After the resume at 20000 bytes, new frames arrive about 2.1 us later, by which time
        // 50 Gb/s has drained 13 KB of the 20 KB: the drain never stops once started. The
        // first frame arrives at 1080 ns; 500 x 988 bytes at 50 Gb/s take 500 x 158.08 ns =
        // 79040 ns: the last is delivered at 80120 ns.
        NS_TEST_ASSERT_MSG_EQ(stack.last, NanoSeconds(80120), "delivery at the drain rate");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The port device and its link.
 */
class RoceNetDeviceTestSuite : public TestSuite
{
  public:
    RoceNetDeviceTestSuite()
        : TestSuite("llm-fabric-roce-net-device", Type::UNIT)
    {
        AddTestCase(new RoceDeviceTimingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDevicePfcTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDevicePfcResumeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceSchedulingTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceSendFrameTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceDeliverTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceHostFrameTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceTxStartTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceHookTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceFrameEndTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceHostPfcTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RoceDeviceHighWaterTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static RoceNetDeviceTestSuite g_roceNetDeviceTestSuite;

} // namespace tests
} // namespace llmfabric
