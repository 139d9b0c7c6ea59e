/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/data-rate.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/nstime.h"
#include "ns3/nvlink-domain.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of NvlinkDomain, the message-level model of the NVLink/NVSwitch fabric of one server:
 * serialization at the port bandwidth with the documented rounding, max-min fair sharing of the
 * egress and ingress ports, the exact piecewise finish times when transfers come and go,
 * conservation and callbacks, the absence of events when idle, the checks of Send's arguments,
 * and randomized all-to-all and incast patterns whose makespan must equal the lower bound.
 *
 * Unless a case says otherwise, the domain has the defaults: 8 GPUs, 3600 Gb/s per port and
 * direction, a latency of 1 us. At the nanosecond resolution 3600 Gb/s is 3600 bits per ns, so
 * a transfer of b bits alone serializes in b / 3600 ns and, by the rounding rule, arrives at
 * ceil(b / 3600) + 1000 ns after it starts.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/// The default Bandwidth, bit/s.
constexpr double FULL_BPS = 3.6e12;
/// Tolerance of rate comparisons, bit/s (rates are doubles; this is 1e-9 of a share).
constexpr double RATE_TOL = 1e3;

/// One arrival seen by a Recorder.
struct Arrival
{
    uint64_t id;    //!< transfer id
    int64_t timeNs; //!< simulation time of the callback, ns
};

/// Records the arrival callbacks of a domain.
class Recorder
{
  public:
    /// @param id the transfer id passed to the callback.
    void Arrived(uint64_t id)
    {
        arrivals.push_back({id, Simulator::Now().GetNanoSeconds()});
    }

    /// @return a callback to this recorder, for Send.
    Callback<void, uint64_t> GetCallback()
    {
        return MakeCallback(&Recorder::Arrived, this);
    }

    /**
     * @param id a transfer id.
     * @return the time of its arrival in ns, or -1 if it has not arrived (or twice: -2).
     */
    int64_t TimeOf(uint64_t id) const
    {
        int64_t found = -1;
        for (const Arrival& a : arrivals)
        {
            if (a.id == id)
            {
                found = (found == -1) ? a.timeNs : -2;
            }
        }
        return found;
    }

    std::vector<Arrival> arrivals; //!< the callbacks, in order
};

/**
 * A domain with the default attributes, and a recorder of the arrivals of what it sends; the
 * domain is disposed of with it.
 */
struct RecordedDomain
{
    ~RecordedDomain()
    {
        domain->Dispose();
    }

    /**
     * Send with the recorder as the arrival callback.
     * @param src source GPU.
     * @param dst destination GPU.
     * @param bytes size.
     * @return the transfer id.
     */
    uint64_t Send(uint32_t src, uint32_t dst, uint64_t bytes)
    {
        return domain->Send(src, dst, bytes, recorder.GetCallback());
    }

    Ptr<NvlinkDomain> domain = CreateObject<NvlinkDomain>(); //!< the domain
    Recorder recorder;                                       //!< its arrivals
};

/// Arguments of the TransferStart traces seen: (id, src, dst, bytes) each.
using StartRecords = std::vector<std::vector<uint64_t>>;
/// Arguments of the TransferEnd traces seen: (id, duration in ns) each.
using EndRecords = std::vector<std::pair<uint64_t, int64_t>>;

/**
 * TransferStart sink.
 * @param out where to record.
 * @param id transfer id.
 * @param src source GPU.
 * @param dst destination GPU.
 * @param bytes size.
 */
void
RecordStart(StartRecords* out, uint64_t id, uint32_t src, uint32_t dst, uint64_t bytes)
{
    out->push_back({id, src, dst, bytes});
}

/**
 * TransferEnd sink.
 * @param out where to record.
 * @param id transfer id.
 * @param src source GPU (unused).
 * @param dst destination GPU (unused).
 * @param bytes size (unused).
 * @param duration from Send to arrival.
 */
void
RecordEnd(EndRecords* out, uint64_t id, uint32_t src, uint32_t dst, uint64_t bytes, Time duration)
{
    out->emplace_back(id, duration.GetNanoSeconds());
}

/// An arrival callback that records into a Recorder and, when transfer 3 arrives, sends another.
struct ChainSender
{
    Ptr<NvlinkDomain> domain;   //!< the domain to send on
    Recorder* recorder;         //!< where arrivals are recorded
    std::vector<uint64_t>* ids; //!< where the new transfer's id goes

    /// @param id the transfer that arrived.
    void Arrived(uint64_t id)
    {
        recorder->Arrived(id);
        if (id == 3)
        {
            // 5 -> 4, 450,000 bytes.
            ids->push_back(domain->Send(5, 4, 450000, recorder->GetCallback()));
        }
    }
};

/**
 * The arrival of the k-th smallest of n transfers of an incast into one GPU, all started at 0
 * from distinct sources, computed exactly in integers. While k' transfers are left, the ingress
 * port gives each C / k', so they progress together: when the k-th smallest finishes, each of the
 * k - 1 smaller ones has sent all its bits and each of the n - k + 1 others has sent as many bits
 * as the k-th, s_k. The port has then carried 8 (s_1 + ... + s_k + (n - k) s_k) bits at C, so the
 * exact finish is that many bits / 3600 ns, rounded up, plus the latency.
 * @param sortedBytes the sizes, sorted increasingly.
 * @param k the rank (1-based) in that order.
 * @return the arrival time in ns.
 */
int64_t
IncastArrivalNs(const std::vector<uint64_t>& sortedBytes, std::size_t k)
{
    uint64_t bytes = 0;
    for (std::size_t j = 0; j < k; ++j)
    {
        bytes += sortedBytes[j];
    }
    bytes += (sortedBytes.size() - k) * sortedBytes[k - 1];
    uint64_t bits = 8 * bytes;
    return static_cast<int64_t>((bits + 3599) / 3600) + 1000;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A test of an NVLink domain, with checks on several transfers at once.
 */
class NvlinkTestCase : public TestCase
{
  protected:
    /// @param name the test case's name.
    explicit NvlinkTestCase(const std::string& name)
        : TestCase(name)
    {
    }

    /**
     * Check that transfers serialize at a rate now.
     * @param net the domain.
     * @param ids the transfers.
     * @param bps the rate derived for each, bit/s.
     * @param why the derivation.
     */
    void ExpectRates(const RecordedDomain& net,
                     const std::vector<uint64_t>& ids,
                     double bps,
                     const std::string& why)
    {
        for (uint64_t id : ids)
        {
            NS_TEST_ASSERT_MSG_EQ_TOL(net.domain->GetRate(id), bps, RATE_TOL, why);
        }
    }

    /**
     * Check that transfers arrived, each once, at a time.
     * @param net the domain, after the run.
     * @param ids the transfers.
     * @param ns the arrival time derived for each, ns.
     * @param why the derivation.
     */
    void ExpectArrivals(const RecordedDomain& net,
                        const std::vector<uint64_t>& ids,
                        int64_t ns,
                        const std::string& why)
    {
        for (uint64_t id : ids)
        {
            NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(id), ns, why);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * One transfer alone, its rounding rule, its traces and its counters.
 */
class NvlinkAloneTestCase : public TestCase
{
  public:
    NvlinkAloneTestCase()
        : TestCase("A transfer alone serializes at the full bandwidth and arrives after latency")
    {
    }

  private:
    void DoRun() override
    {
        RecordedDomain net;
        StartRecords starts;
        EndRecords ends;
        net.domain->TraceConnectWithoutContext("TransferStart",
                                               MakeBoundCallback(&RecordStart, &starts));
        net.domain->TraceConnectWithoutContext("TransferEnd", MakeBoundCallback(&RecordEnd, &ends));

        uint64_t first = net.Send(0, 1, 1000000);
        // Alone, the transfer has the whole egress of GPU 0 and ingress of GPU 1: 3.6e12 bit/s.
        NS_TEST_ASSERT_MSG_EQ_TOL(net.domain->GetRate(first),
                                  FULL_BPS,
                                  RATE_TOL,
                                  "full rate alone");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetActiveTransfers(), 1, "one transfer serializing");

        // Probes: at 2222 ns the fluid finish (2222.2 ns) is not reached; at 2500 ns it is past
        // and the transfer waits for its latency; at 5000 ns it has arrived.
        std::vector<uint32_t> active;
        std::vector<uint32_t> pending;
        for (int64_t t : {2222, 2500, 5000})
        {
            ScheduleLambda(NanoSeconds(t), [&]() {
                active.push_back(net.domain->GetActiveTransfers());
                pending.push_back(net.domain->GetPendingTransfers());
            });
        }
        // A second transfer at 10 us whose serialization is a whole number of ns: 450,000 bytes
        // = 3.6e6 bits = exactly 1000 ns at 3600 bits/ns. It must arrive at 10000 + 1000 + 1000
        // = 12000 ns, not a tick later (the float finish may be a hair above 1000 ns).
        uint64_t second = 0;
        ScheduleLambda(MicroSeconds(10), [&]() { second = net.Send(3, 2, 450000); });
        Simulator::Run();
        Simulator::Destroy();

        // 1,000,000 bytes = 8e6 bits; 8e6 / 3600 = 2222.22 ns of serialization; the first whole
        // ns at or after it is 2223; plus 1000 ns of latency: the callback at 3223 ns.
        NS_TEST_ASSERT_MSG_EQ(first, 1, "ids count from 1");
        NS_TEST_ASSERT_MSG_EQ(second, 2, "the second id is 2");
        NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals.size(), 2, "two callbacks");
        NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(first),
                              3223,
                              "arrival at ceil(2222.2) + 1000 ns");
        NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(second), 12000, "arrival at 10000 + 1000 + 1000");
        NS_TEST_ASSERT_MSG_EQ(active.size(), 3, "three probes ran");
        NS_TEST_ASSERT_MSG_EQ(active[0], 1, "still serializing at 2222 ns");
        NS_TEST_ASSERT_MSG_EQ(active[1], 0, "serialized at 2500 ns");
        NS_TEST_ASSERT_MSG_EQ(pending[1], 1, "in flight at 2500 ns");
        NS_TEST_ASSERT_MSG_EQ(pending[2], 0, "arrived by 5000 ns");

        // Traces: starts with their arguments; ends with Send-to-arrival durations, 3223 ns and
        // 12000 - 10000 = 2000 ns.
        NS_TEST_ASSERT_MSG_EQ(starts.size(), 2, "two TransferStart");
        NS_TEST_ASSERT_MSG_EQ((starts[0] == std::vector<uint64_t>{1, 0, 1, 1000000}),
                              true,
                              "TransferStart(1, 0, 1, 1000000)");
        NS_TEST_ASSERT_MSG_EQ((starts[1] == std::vector<uint64_t>{2, 3, 2, 450000}),
                              true,
                              "TransferStart(2, 3, 2, 450000)");
        NS_TEST_ASSERT_MSG_EQ(ends.size(), 2, "two TransferEnd");
        NS_TEST_ASSERT_MSG_EQ(ends[0].first, 1, "transfer 1 ends first");
        NS_TEST_ASSERT_MSG_EQ(ends[0].second, 3223, "duration of transfer 1");
        NS_TEST_ASSERT_MSG_EQ(ends[1].first, 2, "transfer 2 ends second");
        NS_TEST_ASSERT_MSG_EQ(ends[1].second, 2000, "duration of transfer 2");

        // Counters: 2 transfers, 1,450,000 bytes both ways.
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetTransfersStarted(), 2, "started");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetTransfersCompleted(), 2, "completed");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetBytesSent(), 1450000, "bytes sent");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetBytesDelivered(), 1450000, "bytes delivered");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Two transfers from one source share its egress port.
 */
class NvlinkSameSourceTestCase : public NvlinkTestCase
{
  public:
    NvlinkSameSourceTestCase()
        : NvlinkTestCase("Two transfers from one source to two destinations get half the rate each")
    {
    }

  private:
    void DoRun() override
    {
        RecordedDomain net;
        std::vector<uint64_t> ids{net.Send(0, 1, 1000000), net.Send(0, 2, 1000000)};
        // The egress of GPU 0 is the only shared port: 3.6e12 / 2 = 1.8e12 bit/s each.
        ExpectRates(net, ids, FULL_BPS / 2, "half rate");
        Simulator::Run();
        Simulator::Destroy();
        // 8e6 bits at 1800 bits/ns: 4444.44 ns -> 4445 ns, + 1000: both at 5445 ns, in id order.
        NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals.size(), 2, "two callbacks");
        ExpectArrivals(net, ids, 5445, "both arrivals");
        NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals[0].id,
                              ids[0],
                              "ties are delivered in id order");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Incast of three sources into one GPU, together and with a late joiner.
 */
class NvlinkIncastTestCase : public NvlinkTestCase
{
  public:
    NvlinkIncastTestCase()
        : NvlinkTestCase(
              "Incast 3 to 1 shares the ingress in thirds and a late transfer reshapes it")
    {
    }

  private:
    void DoRun() override
    {
        // Together: GPUs 1, 2, 3 send 1,000,000 bytes each to GPU 0 at time 0. The ingress of
        // GPU 0 gives 1.2e12 bit/s each; 8e6 bits / 1200 = 6666.67 ns -> 6667 + 1000 = 7667 ns.
        {
            RecordedDomain net;
            std::vector<uint64_t> ids;
            for (uint32_t src = 1; src <= 3; ++src)
            {
                ids.push_back(net.Send(src, 0, 1000000));
            }
            ExpectRates(net, ids, FULL_BPS / 3, "a third");
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals.size(), 3, "three callbacks");
            ExpectArrivals(net, ids, 7667, "arrival of a third-rate one");
        }

        // Late joiner: 1 -> 0 and 2 -> 0, 1,000,000 bytes (8e6 bits) each, at 0: 1800 bits/ns
        // each. At 1000 ns, 3 -> 0 starts with 1,000,150 bytes (8,001,200 bits); the first two
        // have sent 1.8e6 bits and have 6.2e6 left; now all three run at 1200 bits/ns.
        // - The first two finish at 1000 + 6.2e6 / 1200 = 6166.67 ns -> arrive 6167 + 1000 =
        //   7167 ns.
        // - By then the third has sent 6.2e6 bits too, so 1,801,200 are left; alone it runs at
        //   3600 bits/ns from the exact instant 6166.67 ns: 500.33 ns more, finishing at exactly
        //   6667 ns -> arrival 7667 ns. (Had the freed bandwidth been given to it only at the
        //   6167 ns event, it would finish at 6667.22 ns and arrive at 7668 ns.)
        RecordedDomain net;
        uint64_t a = net.Send(1, 0, 1000000);
        uint64_t b = net.Send(2, 0, 1000000);
        uint64_t c = 0;
        std::vector<double> rates; // a at 500 ns; a, b, c at 2000 ns; c at 6500 ns
        ScheduleLambda(NanoSeconds(500), [&]() { rates.push_back(net.domain->GetRate(a)); });
        ScheduleLambda(NanoSeconds(1000), [&]() { c = net.Send(3, 0, 1000150); });
        ScheduleLambda(NanoSeconds(2000), [&]() {
            rates.push_back(net.domain->GetRate(a));
            rates.push_back(net.domain->GetRate(b));
            rates.push_back(net.domain->GetRate(c));
        });
        ScheduleLambda(NanoSeconds(6500), [&]() { rates.push_back(net.domain->GetRate(c)); });
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(rates.size(), 5, "five rate probes");
        NS_TEST_ASSERT_MSG_EQ_TOL(rates[0], FULL_BPS / 2, RATE_TOL, "halves before the joiner");
        NS_TEST_ASSERT_MSG_EQ_TOL(rates[1], FULL_BPS / 3, RATE_TOL, "thirds after it (a)");
        NS_TEST_ASSERT_MSG_EQ_TOL(rates[2], FULL_BPS / 3, RATE_TOL, "thirds after it (b)");
        NS_TEST_ASSERT_MSG_EQ_TOL(rates[3], FULL_BPS / 3, RATE_TOL, "thirds after it (c)");
        NS_TEST_ASSERT_MSG_EQ_TOL(rates[4], FULL_BPS, RATE_TOL, "the joiner alone at the end");
        NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(a), 7167, "first early transfer");
        NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(b), 7167, "second early transfer");
        NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(c),
                              7667,
                              "the joiner, at its exact fluid finish");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Max-min fairness where egress and ingress constraints interact.
 */
class NvlinkMaxMinTestCase : public NvlinkTestCase
{
  public:
    NvlinkMaxMinTestCase()
        : NvlinkTestCase("Max-min fair rates under mixed egress and ingress constraints")
    {
    }

  private:
    void DoRun() override
    {
        // A = 0, B = 1, C = 2, D = 3. A->C 1,000,000 bytes, B->C and A->D 2,000,000 bytes each.
        // Fair shares: egress A 3600/2, ingress C 3600/2, egress B and ingress D 3600. The
        // ingress of C gives 1800 to A->C and B->C, the egress of A leaves 3600 - 1800 = 1800 to
        // A->D: all at 1.8e12 bit/s. A->C ends at 8e6 / 1800 = 4444.44 ns -> arrives at 5445 ns.
        // Then B->C and A->D are alone on their ports: 3600 bits/ns for their remaining
        // 1.6e7 - 8e6 = 8e6 bits, 2222.22 ns more: finish at 6666.67 -> arrive at 7667 ns.
        {
            RecordedDomain net;
            uint64_t ac = net.Send(0, 2, 1000000);
            uint64_t bc = net.Send(1, 2, 2000000);
            uint64_t ad = net.Send(0, 3, 2000000);
            NS_TEST_ASSERT_MSG_EQ_TOL(net.domain->GetRate(ac), FULL_BPS / 2, RATE_TOL, "A->C");
            NS_TEST_ASSERT_MSG_EQ_TOL(net.domain->GetRate(bc), FULL_BPS / 2, RATE_TOL, "B->C");
            NS_TEST_ASSERT_MSG_EQ_TOL(net.domain->GetRate(ad), FULL_BPS / 2, RATE_TOL, "A->D");
            std::vector<double> later;
            ScheduleLambda(NanoSeconds(5000), [&]() {
                later.push_back(net.domain->GetRate(bc));
                later.push_back(net.domain->GetRate(ad));
                later.push_back(net.domain->GetRate(ac));
            });
            Simulator::Run();
            Simulator::Destroy();
            NS_TEST_ASSERT_MSG_EQ(later.size(), 3, "probe ran");
            NS_TEST_ASSERT_MSG_EQ_TOL(later[0], FULL_BPS, RATE_TOL, "B->C rises to full");
            NS_TEST_ASSERT_MSG_EQ_TOL(later[1], FULL_BPS, RATE_TOL, "A->D rises to full");
            NS_TEST_ASSERT_MSG_EQ(later[2], 0, "A->C no longer serializes");
            NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(ac), 5445, "A->C arrival");
            NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(bc), 7667, "B->C arrival");
            NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(ad), 7667, "A->D arrival");
        }

        // Unequal shares: 0->4, 1->4, 2->4 and 0->5, 1,000,000 bytes each. The ingress of 4 is
        // the bottleneck (3600 / 3 = 1200 < egress 0's 3600 / 2): its three transfers get 1200.
        // The egress of 0 then leaves 3600 - 1200 = 2400 to 0->5 (max-min, not 1800: an equal
        // split of egress 0 would waste 600 bits/ns). 0->5 ends at 8e6 / 2400 = 3333.33 ns ->
        // arrives at 4334 ns; this frees nothing the others can use (ingress 4 still limits them
        // to 1200), so they end at 8e6 / 1200 = 6666.67 ns -> arrive at 7667 ns.
        RecordedDomain net;
        std::vector<uint64_t> toFour;
        for (uint32_t src = 0; src < 3; ++src)
        {
            toFour.push_back(net.Send(src, 4, 1000000));
        }
        uint64_t toFive = net.Send(0, 5, 1000000);
        ExpectRates(net, toFour, FULL_BPS / 3, "into 4");
        NS_TEST_ASSERT_MSG_EQ_TOL(net.domain->GetRate(toFive), 2 * FULL_BPS / 3, RATE_TOL, "0->5");
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(toFive), 4334, "0->5 arrival");
        ExpectArrivals(net, toFour, 7667, "arrival into 4");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Over random sets of transfers, the rates are the max-min fair allocation, checked by its
 * defining properties rather than by another run of the same algorithm: no port (a GPU's egress
 * or ingress) carries more than the Bandwidth, and every transfer has a bottleneck, a port of
 * its own that is full and on which no transfer gets more than it does (Bertsekas and Gallager,
 * Data Networks, 6.5.2: an allocation is max-min fair exactly when every flow has such a
 * bottleneck link). A fair share kept stale by ComputeRates would give some transfer more than
 * a port has, or leave a port with spare capacity.
 */
class NvlinkMaxMinPropertyTestCase : public TestCase
{
  public:
    NvlinkMaxMinPropertyTestCase()
        : TestCase("Random transfer sets get max-min fair rates: every transfer has a bottleneck")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(7);
        std::uniform_int_distribution<uint32_t> gpu(0, 7);
        std::uniform_int_distribution<uint32_t> count(1, 40);
        uint32_t checked = 0;
        for (int set = 0; set < 300; ++set)
        {
            RecordedDomain net;
            std::vector<std::pair<uint32_t, uint32_t>> ends; // (egress port, ingress port)
            std::vector<uint64_t> ids;
            uint32_t n = count(rng);
            while (ids.size() < n)
            {
                uint32_t src = gpu(rng);
                uint32_t dst = gpu(rng);
                if (src != dst)
                {
                    ids.push_back(net.Send(src, dst, 1000000000)); // none ends at time 0
                    ends.emplace_back(src, 8 + dst);
                }
            }
            std::vector<double> rate(n);
            std::vector<double> load(16, 0.0);
            std::vector<double> largest(16, 0.0);
            for (uint32_t i = 0; i < n; ++i)
            {
                rate[i] = net.domain->GetRate(ids[i]);
                for (uint32_t port : {ends[i].first, ends[i].second})
                {
                    load[port] += rate[i];
                    largest[port] = std::max(largest[port], rate[i]);
                }
            }
            for (uint32_t port = 0; port < 16; ++port)
            {
                NS_TEST_ASSERT_MSG_LT_OR_EQ(load[port],
                                            FULL_BPS * (1 + 1e-9),
                                            "set " << set << ": port " << port << " overloaded");
            }
            for (uint32_t i = 0; i < n; ++i)
            {
                bool bottleneck = false;
                for (uint32_t port : {ends[i].first, ends[i].second})
                {
                    bottleneck = bottleneck || (load[port] >= FULL_BPS * (1 - 1e-9) &&
                                                rate[i] >= largest[port] * (1 - 1e-9));
                }
                NS_TEST_ASSERT_MSG_EQ(bottleneck,
                                      true,
                                      "set " << set << ": transfer " << i << " at " << rate[i]
                                             << " bit/s has no bottleneck");
                ++checked;
            }
            Simulator::Destroy();
        }
        NS_TEST_ASSERT_MSG_GT(checked, 3000, "transfers checked");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Transfer sets with at most two transfers through a port (rings inside a server, one or two
 * channels, which NvlinkDomain rates without its bottleneck search): max-min fairness gives
 * C / 2 to each transfer through a port of two (the two share that port, and neither can have
 * more without taking it from the other) and the whole C to a transfer alone at both its ports.
 */
class NvlinkTwoPerPortTestCase : public NvlinkTestCase
{
  public:
    NvlinkTwoPerPortTestCase()
        : NvlinkTestCase(
              "At most two transfers a port: half of C through a port of two, C otherwise")
    {
    }

  private:
    void DoRun() override
    {
        std::mt19937 rng(11);
        std::uniform_int_distribution<uint32_t> gpu(0, 7);
        uint32_t halves = 0;
        uint32_t wholes = 0;
        for (int set = 0; set < 300; ++set)
        {
            RecordedDomain net;
            std::vector<uint32_t> through(16, 0); // transfers per port
            std::vector<std::pair<uint32_t, uint32_t>> ends;
            std::vector<uint64_t> ids;
            // Up to 16 tries at a transfer; one that would put a third through a port is not
            // made.
            for (int k = 0; k < 16; ++k)
            {
                uint32_t src = gpu(rng);
                uint32_t dst = gpu(rng);
                if (src == dst || through[src] == 2 || through[8 + dst] == 2)
                {
                    continue;
                }
                ++through[src];
                ++through[8 + dst];
                ids.push_back(net.Send(src, dst, 1000000000)); // none ends at time 0
                ends.emplace_back(src, 8 + dst);
            }
            for (std::size_t i = 0; i < ids.size(); ++i)
            {
                bool shared = through[ends[i].first] == 2 || through[ends[i].second] == 2;
                (shared ? halves : wholes)++;
                NS_TEST_ASSERT_MSG_EQ_TOL(net.domain->GetRate(ids[i]),
                                          (shared ? FULL_BPS / 2 : FULL_BPS),
                                          RATE_TOL,
                                          "set " << set << ": transfer " << i << " from GPU "
                                                 << ends[i].first << " to GPU "
                                                 << ends[i].second - 8);
            }
            Simulator::Destroy();
        }
        // Both kinds occur often enough to matter.
        NS_TEST_ASSERT_MSG_GT(halves, 1000, "transfers through a port of two");
        NS_TEST_ASSERT_MSG_GT(wholes, 100, "transfers alone at both ports");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Transfers that share no port do not slow each other down.
 */
class NvlinkIndependentTestCase : public NvlinkTestCase
{
  public:
    NvlinkIndependentTestCase()
        : NvlinkTestCase(
              "Transfers on disjoint ports, including opposite directions, run at full rate")
    {
    }

  private:
    void DoRun() override
    {
        // 0->1, 2->3 and 1->0: the ports are egress 0, ingress 1, egress 2, ingress 3, egress 1,
        // ingress 0, all distinct (a GPU's two directions are separate ports). Each transfer is
        // alone on its ports: 3.6e12 bit/s, 8e6 bits -> 2222.22 ns -> arrival at 3223 ns.
        RecordedDomain net;
        std::vector<uint64_t> ids{net.Send(0, 1, 1000000),
                                  net.Send(2, 3, 1000000),
                                  net.Send(1, 0, 1000000)};
        ExpectRates(net, ids, FULL_BPS, "full rate");
        Simulator::Run();
        Simulator::Destroy();
        ExpectArrivals(net, ids, 3223, "arrival as if alone");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Conservation of bytes, order of the callbacks, ids, and no events left when idle.
 */
class NvlinkConservationTestCase : public TestCase
{
  public:
    NvlinkConservationTestCase()
        : TestCase("Bytes are conserved, callbacks come in arrival order, and idle means no events")
    {
    }

  private:
    void DoRun() override
    {
        // At 0: id 1 0->1 1,000,000 B, id 2 2->3 500,000 B, id 3 4->5 250,000 B; all on
        // disjoint ports, at 3600 bits/ns:
        // - id 3: 2e6 bits -> 555.56 ns -> arrival 556 + 1000 = 1556 ns; its callback sends
        //   id 4, 5->4 450,000 B (3.6e6 bits, exactly 1000 ns): arrival 1556 + 2000 = 3556 ns.
        // - id 2: 4e6 bits -> 1111.11 ns -> arrival 2112 ns.
        // - id 1: 8e6 bits -> 2222.22 ns -> arrival 3223 ns.
        // Callback order: 3, 2, 1, 4; 2,200,000 bytes in all.
        RecordedDomain net;
        std::vector<uint64_t> ids;
        ChainSender chain{net.domain, &net.recorder, &ids};
        uint64_t startEvents = Simulator::GetEventCount();
        ids.push_back(net.Send(0, 1, 1000000));
        ids.push_back(net.Send(2, 3, 500000));
        ids.push_back(net.domain->Send(4, 5, 250000, MakeCallback(&ChainSender::Arrived, &chain)));

        // Probe at 2600 ns: all serialized (the last, id 4, at 1556 + 1000 = 2556 ns), ids 1 and
        // 4 still in flight: no wakeup pending, only the two arrival events.
        // Probe at 10 us: everything arrived: nothing may be left in the event queue.
        uint32_t activeAt2600 = 99;
        uint32_t pendingAt2600 = 99;
        bool finishedAt10us = false;
        uint64_t eventsAt10us = 0;
        ScheduleLambda(NanoSeconds(2600), [&]() {
            activeAt2600 = net.domain->GetActiveTransfers();
            pendingAt2600 = net.domain->GetPendingTransfers();
        });
        ScheduleLambda(MicroSeconds(10), [&]() {
            finishedAt10us = Simulator::IsFinished();
            eventsAt10us = Simulator::GetEventCount();
        });
        Simulator::Run();
        Simulator::Destroy();

        NS_TEST_ASSERT_MSG_EQ(ids.size(), 4, "four transfers");
        for (std::size_t i = 0; i < ids.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(ids[i], i + 1, "ids count up from 1");
        }
        NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals.size(), 4, "four callbacks");
        const std::vector<std::pair<uint64_t, int64_t>> expected{{3, 1556},
                                                                 {2, 2112},
                                                                 {1, 3223},
                                                                 {4, 3556}};
        for (std::size_t i = 0; i < expected.size(); ++i)
        {
            NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals[i].id, expected[i].first, "callback order");
            NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals[i].timeNs, expected[i].second, "its time");
        }
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetTransfersStarted(), 4, "started");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetTransfersCompleted(), 4, "completed");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetBytesSent(), 2200000, "bytes sent");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetBytesDelivered(),
                              net.domain->GetBytesSent(),
                              "bytes delivered = bytes sent");
        NS_TEST_ASSERT_MSG_EQ(net.domain->GetPendingTransfers(), 0, "nothing pending");
        NS_TEST_ASSERT_MSG_EQ(activeAt2600, 0, "nothing serializes at 2600 ns");
        NS_TEST_ASSERT_MSG_EQ(pendingAt2600, 2, "ids 1 and 4 in flight at 2600 ns");
        NS_TEST_ASSERT_MSG_EQ(finishedAt10us, true, "no event pending once idle");
        // Events executed: one wakeup per distinct serialization end (556, 1112, 2223 and
        // 2556 ns; the wakeups moved by later Sends are removed, not run), one arrival per
        // transfer (4), and the two probes: 4 + 4 + 2 = 10. Any polling would add more.
        NS_TEST_ASSERT_MSG_EQ(eventsAt10us - startEvents, 10, "events: no polling");
    }
};

/**
 * @ingroup llm-fabric-tests
 * CheckSend's diagnostics and the attributes.
 */
class NvlinkCheckTestCase : public TestCase
{
  public:
    NvlinkCheckTestCase()
        : TestCase("Invalid transfers are reported with their values and attributes are checked")
    {
    }

  private:
    /**
     * @param text a text.
     * @param part a part it should contain.
     * @return true if it does.
     */
    static bool Contains(const std::string& text, const std::string& part)
    {
        return text.find(part) != std::string::npos;
    }

    void DoRun() override
    {
        Ptr<NvlinkDomain> domain = CreateObject<NvlinkDomain>();
        NS_TEST_ASSERT_MSG_EQ(domain->CheckSend(0, 7, 1), "", "0 -> 7 of 1 byte is fine");
        std::string same = domain->CheckSend(3, 3, 10);
        NS_TEST_ASSERT_MSG_EQ(Contains(same, "source GPU 3 equals destination GPU 3"),
                              true,
                              "src == dst named: " << same);
        std::string badSrc = domain->CheckSend(8, 1, 10);
        NS_TEST_ASSERT_MSG_EQ(Contains(badSrc, "source GPU 8 out of range"),
                              true,
                              "source out of range named: " << badSrc);
        NS_TEST_ASSERT_MSG_EQ(Contains(badSrc, "8 GPUs"), true, "the size named: " << badSrc);
        std::string badDst = domain->CheckSend(0, 9, 10);
        NS_TEST_ASSERT_MSG_EQ(Contains(badDst, "destination GPU 9 out of range"),
                              true,
                              "destination out of range named: " << badDst);
        std::string empty = domain->CheckSend(0, 1, 0);
        NS_TEST_ASSERT_MSG_EQ(Contains(empty, "bytes 0"), true, "zero bytes named: " << empty);

        // Defaults: 8 GPUs, 3600 Gb/s (an H100's 18 NVLink4 links x 25 GB/s), 1 us.
        UintegerValue gpus;
        domain->GetAttribute("Gpus", gpus);
        NS_TEST_ASSERT_MSG_EQ(gpus.Get(), 8, "default Gpus");
        DataRateValue bandwidth;
        domain->GetAttribute("Bandwidth", bandwidth);
        NS_TEST_ASSERT_MSG_EQ(bandwidth.Get().GetBitRate(), 3600000000000ULL, "default Bandwidth");
        TimeValue latency;
        domain->GetAttribute("Latency", latency);
        NS_TEST_ASSERT_MSG_EQ(latency.Get(), MicroSeconds(1), "default Latency");

        NS_TEST_ASSERT_MSG_EQ(domain->SetAttributeFailSafe("Gpus", UintegerValue(0)),
                              false,
                              "0 GPUs refused");
        NS_TEST_ASSERT_MSG_EQ(domain->SetAttributeFailSafe("Gpus", UintegerValue(2)),
                              true,
                              "2 GPUs accepted");
        std::string pastTwo = domain->CheckSend(0, 2, 1);
        NS_TEST_ASSERT_MSG_EQ(Contains(pastTwo, "destination GPU 2 out of range"),
                              true,
                              "the new size applies: " << pastTwo);

        // Another bandwidth and no latency: 2 GPUs at 100 Gb/s = 100 bits/ns; 1,000 bytes =
        // 8000 bits -> exactly 80 ns, arriving at 80 ns with a zero latency.
        NS_TEST_ASSERT_MSG_EQ(
            domain->SetAttributeFailSafe("Bandwidth", DataRateValue(DataRate("100Gbps"))),
            true,
            "100 Gb/s accepted");
        domain->SetAttribute("Latency", TimeValue(Time(0)));
        Recorder recorder;
        uint64_t id = domain->Send(1, 0, 1000, recorder.GetCallback());
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_ASSERT_MSG_EQ(recorder.TimeOf(id), 80, "80 ns at 100 Gb/s without latency");
        domain->Dispose();
    }
};

/**
 * @ingroup llm-fabric-tests
 * Randomized patterns whose makespan must equal the lower bound: all-to-all of equal sizes in
 * sixteen 8-GPU servers (a 128-GPU job), and incasts of random sizes.
 */
class NvlinkRandomizedTestCase : public TestCase
{
  public:
    NvlinkRandomizedTestCase()
        : TestCase("Randomized all-to-all and incast finish at the makespan lower bound")
    {
    }

  private:
    void DoRun() override
    {
        AllToAll();
        Incast();
    }

    /// Rounds of all-to-all in 16 domains, sizes and Send order drawn with a fixed seed.
    void AllToAll()
    {
        constexpr uint32_t DOMAINS = 16;
        constexpr uint32_t ROUNDS = 5;
        constexpr uint32_t GPUS = 8;
        std::mt19937 rng(20260704);
        std::vector<Ptr<NvlinkDomain>> domains;
        std::vector<Recorder> recorders(DOMAINS);
        for (uint32_t d = 0; d < DOMAINS; ++d)
        {
            domains.push_back(CreateObject<NvlinkDomain>());
        }
        // expected[d][r]: arrival time in ns of all 56 transfers of round r in domain d.
        std::vector<std::vector<int64_t>> expected(DOMAINS, std::vector<int64_t>(ROUNDS));
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        for (uint32_t s = 0; s < GPUS; ++s)
        {
            for (uint32_t t = 0; t < GPUS; ++t)
            {
                if (s != t)
                {
                    pairs.emplace_back(s, t);
                }
            }
        }
        uint64_t startEvents = Simulator::GetEventCount();
        for (uint32_t r = 0; r < ROUNDS; ++r)
        {
            // Round r starts at r x 100 us; the largest round lasts 7 x 8 x 4e6 / 3600 + 1000 =
            // 63223 ns, so rounds do not overlap.
            int64_t startNs = r * 100000;
            std::vector<uint64_t> sizes;
            std::vector<std::vector<std::pair<uint32_t, uint32_t>>> orders;
            for (uint32_t d = 0; d < DOMAINS; ++d)
            {
                uint64_t size = 1 + rng() % 4000000;
                sizes.push_back(size);
                std::vector<std::pair<uint32_t, uint32_t>> order = pairs;
                std::shuffle(order.begin(), order.end(), rng);
                orders.push_back(order);
                // Every egress and ingress port carries 7 transfers at 3600 / 7 bits/ns, all
                // busy until every transfer ends together after 7 x 8 x size / 3600 ns, the
                // lower bound of a port's 7 x 8 x size bits; rounded up, + 1000 ns.
                uint64_t bits = 7 * 8 * size;
                expected[d][r] = startNs + static_cast<int64_t>((bits + 3599) / 3600) + 1000;
            }
            ScheduleLambda(NanoSeconds(startNs), [&, sizes, orders]() {
                for (uint32_t d = 0; d < DOMAINS; ++d)
                {
                    for (const auto& pair : orders[d])
                    {
                        domains[d]->Send(pair.first,
                                         pair.second,
                                         sizes[d],
                                         recorders[d].GetCallback());
                    }
                }
            });
        }
        Simulator::Run();
        uint64_t events = Simulator::GetEventCount() - startEvents;
        Simulator::Destroy();

        for (uint32_t d = 0; d < DOMAINS; ++d)
        {
            NS_TEST_ASSERT_MSG_EQ(recorders[d].arrivals.size(),
                                  ROUNDS * 56,
                                  "56 arrivals per round in domain " << d);
            for (std::size_t i = 0; i < recorders[d].arrivals.size(); ++i)
            {
                const Arrival& a = recorders[d].arrivals[i];
                NS_TEST_ASSERT_MSG_EQ(a.timeNs,
                                      expected[d][i / 56],
                                      "domain " << d << " transfer " << a.id);
            }
            NS_TEST_ASSERT_MSG_EQ(domains[d]->GetBytesDelivered(),
                                  domains[d]->GetBytesSent(),
                                  "bytes conserved in domain " << d);
            domains[d]->Dispose();
        }
        // Events: per domain and round one wakeup (all 56 end together) and 56 arrivals; plus
        // one start event per round: 16 x 5 x 57 + 5 = 4565.
        NS_TEST_ASSERT_MSG_EQ(events, DOMAINS * ROUNDS * 57 + ROUNDS, "events of the run");
    }

    /// Incasts of 7 random sizes into one GPU: the ingress is busy until the last one ends.
    void Incast()
    {
        std::mt19937 rng(7);
        for (uint32_t trial = 0; trial < 20; ++trial)
        {
            RecordedDomain net;
            uint32_t target = rng() % 8;
            std::vector<std::pair<uint64_t, uint64_t>> sent; // (bytes, id)
            for (uint32_t src = 0; src < 8; ++src)
            {
                if (src != target)
                {
                    uint64_t bytes = 1 + rng() % 3000000;
                    sent.emplace_back(bytes, net.Send(src, target, bytes));
                }
            }
            Simulator::Run();
            Simulator::Destroy();
            std::sort(sent.begin(), sent.end());
            std::vector<uint64_t> sorted;
            for (const auto& s : sent)
            {
                sorted.push_back(s.first);
            }
            for (std::size_t k = 1; k <= sent.size(); ++k)
            {
                // Transfers of equal size may have either id: compare the time of the k-th.
                NS_TEST_ASSERT_MSG_EQ(net.recorder.TimeOf(sent[k - 1].second),
                                      IncastArrivalNs(sorted, k),
                                      "trial " << trial << ": arrival of the " << k
                                               << "-th smallest");
            }
            // The last one, k = 7, is the lower bound: all bits through one ingress port.
            uint64_t total = std::accumulate(sorted.begin(), sorted.end(), uint64_t{0});
            int64_t lowerBound = static_cast<int64_t>((8 * total + 3599) / 3600) + 1000;
            NS_TEST_ASSERT_MSG_EQ(net.recorder.arrivals.back().timeNs,
                                  lowerBound,
                                  "trial " << trial << ": makespan");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The NVLink/NVSwitch domain of one server.
 */
class NvlinkDomainTestSuite : public TestSuite
{
  public:
    NvlinkDomainTestSuite()
        : TestSuite("llm-fabric-nvlink-domain", Type::UNIT)
    {
        AddTestCase(new NvlinkAloneTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkSameSourceTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkIncastTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkMaxMinTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkMaxMinPropertyTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkTwoPerPortTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkIndependentTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkConservationTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkCheckTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new NvlinkRandomizedTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// Static instance that registers the suite.
static NvlinkDomainTestSuite g_nvlinkDomainTestSuite;

} // namespace tests
} // namespace llmfabric
