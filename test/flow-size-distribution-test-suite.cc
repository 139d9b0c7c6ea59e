/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-test-util.h"
#include "llm-fabric-test-util.h"

#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/flow-size-distribution.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/random-variable-stream.h"
#include "ns3/rdma-flow-generator.h"
#include "ns3/rdma-helper.h"
#include "ns3/roce-topology-helper.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * Sample() and GetMean() on small CDFs whose values are derived by hand: a segment, an atom,
 * another segment; and a first point above 0 percent (a mass at its size).
 */
class FlowSizeHandCdfTestCase : public TestCase
{
  public:
    FlowSizeHandCdfTestCase()
        : TestCase("Sample and mean of hand-made CDFs equal the hand-derived values")
    {
    }

  private:
    void DoRun() override
    {
        // 100 bytes at 0 %, 200 at 50 % (uniform 100..200 on the first half), 200 at 75 % (an
        // atom of 25 % at 200), 1000 at 100 % (uniform 200..1000 on the last quarter).
        FlowSizeDistribution d;
        std::istringstream text("# hand-made\n100 0\n200 50\n\n200 75\n1000 100\n");
        NS_TEST_ASSERT_MSG_EQ(d.Parse(text, "hand.txt"), "", "parses");
        NS_TEST_EXPECT_MSG_EQ(d.GetPoints().size(), 4u, "4 points");
        CheckSamples(d,
                     {{0.0, 100, "u=0: the first size"},
                      {0.1, 120, "u=0.1: 100 + 100 x 10/50"},
                      {0.25, 150, "u=0.25: 100 + 100 x 25/50"},
                      {0.5, 200, "u=0.5: end of the first segment"},
                      {0.6, 200, "u=0.6: inside the atom"},
                      {0.75, 200, "u=0.75: top of the atom"},
                      {0.875, 600, "u=0.875: 200 + 800 x 12.5/25"},
                      {0.95, 840, "u=0.95: 200 + 800 x 20/25"},
                      {1.0, 1000, "u=1: the last size"},
                      {1.5, 1000, "u above 1 is clamped"}});
        // 0.5 x 150 + 0.25 x 200 + 0.25 x 600 = 75 + 50 + 150 = 275.
        NS_TEST_EXPECT_MSG_EQ_TOL(d.GetMean(), 275.0, 1e-9, "exact mean");

        // 10 bytes at 20 % (a mass of 20 % at 10), then uniform 10..30 for the rest.
        FlowSizeDistribution e;
        NS_TEST_ASSERT_MSG_EQ(e.SetPoints({{10, 20}, {30, 100}}, "code"), "", "valid");
        CheckSamples(e,
                     {{0.1, 10, "u=0.1: inside the first mass"},
                      {0.2, 10, "u=0.2: its top"},
                      {0.6, 20, "u=0.6: 10 + 20 x 40/80"},
                      {0.61, 20, "u=0.61: 20.25 rounds to 20"},
                      {0.63, 21, "u=0.63: 20.75 rounds to 21"}});
        // 0.2 x 10 + 0.8 x 20 = 18.
        NS_TEST_EXPECT_MSG_EQ_TOL(e.GetMean(), 18.0, 1e-12, "exact mean");
    }

    /// A quantile and the size Sample must give for it.
    struct Quantile
    {
        double u;        //!< the quantile
        uint64_t size;   //!< the size derived by hand
        const char* why; //!< the derivation
    };

    /**
     * Check Sample at some quantiles.
     * @param d the distribution.
     * @param quantiles the quantiles and their sizes.
     */
    void CheckSamples(const FlowSizeDistribution& d, const std::vector<Quantile>& quantiles)
    {
        for (const Quantile& q : quantiles)
        {
            NS_TEST_EXPECT_MSG_EQ(d.Sample(q.u), q.size, q.why);
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * The built-in WebSearch and Hadoop tables equal the shared data files point for point.
 */
class FlowSizeBuiltInTestCase : public TestCase
{
  public:
    FlowSizeBuiltInTestCase()
        : TestCase("Built-in websearch and hadoop equal the shared data files")
    {
    }

  private:
    void DoRun() override
    {
        FlowSizeDistribution unknown;
        NS_TEST_EXPECT_MSG_EQ(unknown.LoadBuiltIn("storage"),
                              "unknown built-in distribution 'storage' (websearch or hadoop)",
                              "unknown name");
        NS_TEST_EXPECT_MSG_EQ(unknown.IsLoaded(), false, "nothing loaded");
        std::string data = FindSharedDataDir(GetName());
        if (data.empty())
        {
            return;
        }
        for (const auto& [name, file] : {std::make_pair("websearch", "WebSearch_distribution.txt"),
                                         std::make_pair("hadoop", "FbHdp_distribution.txt")})
        {
            FlowSizeDistribution builtIn;
            FlowSizeDistribution loaded;
            NS_TEST_ASSERT_MSG_EQ(builtIn.LoadBuiltIn(name), "", name);
            NS_TEST_ASSERT_MSG_EQ(loaded.Load(data + "/flow-size-cdfs/" + file), "", file);
            const auto& a = builtIn.GetPoints();
            const auto& b = loaded.GetPoints();
            NS_TEST_ASSERT_MSG_EQ(a.size(), b.size(), name << ": number of points");
            for (size_t i = 0; i < a.size(); ++i)
            {
                NS_TEST_EXPECT_MSG_EQ(a[i].first, b[i].first, name << ": size of point " << i);
                NS_TEST_EXPECT_MSG_EQ(a[i].second, b[i].second, name << ": percent of point " << i);
            }
            NS_TEST_EXPECT_MSG_EQ(builtIn.GetMean(), loaded.GetMean(), name << ": mean");
        }
        FlowSizeDistribution byName;
        NS_TEST_EXPECT_MSG_EQ(byName.LoadByName("WebSearch"), "", "built-in names ignore case");
        NS_TEST_EXPECT_MSG_EQ(byName.GetPoints().back().first, 30000000u, "websearch's last size");
    }
};

/**
 * @ingroup llm-fabric-tests
 * 100,000 samples of each built-in distribution, from a fixed stream, have a mean within 3
 * standard errors of GetMean(), the standard error derived from the sample variance.
 */
class FlowSizeSampleMeanTestCase : public TestCase
{
  public:
    FlowSizeSampleMeanTestCase()
        : TestCase("The mean of 100,000 samples is within 3 standard errors of GetMean")
    {
    }

  private:
    void DoRun() override
    {
        int64_t stream = 7;
        for (const std::string name : {"websearch", "hadoop"})
        {
            FlowSizeDistribution d;
            NS_TEST_ASSERT_MSG_EQ(d.LoadBuiltIn(name), "", name);
            Ptr<UniformRandomVariable> u = CreateObject<UniformRandomVariable>();
            u->SetStream(stream++);
            const uint32_t n = 100000;
            double sum = 0;
            double sumSquares = 0;
            for (uint32_t i = 0; i < n; ++i)
            {
                auto x = static_cast<double>(d.Sample(u->GetValue(0, 1)));
                sum += x;
                sumSquares += x * x;
            }
            double mean = sum / n;
            double variance = (sumSquares - n * mean * mean) / (n - 1);
            double standardError = std::sqrt(variance / n);
            NS_TEST_EXPECT_MSG_GT(standardError, 0, name << ": the samples vary");
            NS_TEST_EXPECT_MSG_LT(std::abs(mean - d.GetMean()),
                                  3 * standardError,
                                  name << ": sample mean " << mean << " vs " << d.GetMean()
                                       << " (standard error " << standardError << ")");
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * Malformed input gives the exact messages, naming the file and the line.
 */
class FlowSizeMalformedTestCase : public TestCase
{
  public:
    FlowSizeMalformedTestCase()
        : TestCase("Malformed CDFs are refused with the exact messages")
    {
    }

  private:
    void DoRun() override
    {
        const std::pair<const char*, const char*> cases[] = {
            {"", "f.txt: no points (expected lines \"size_bytes cumulative_percent\")"},
            {"# only a comment\n\n",
             "f.txt: no points (expected lines \"size_bytes cumulative_percent\")"},
            {"0 0\n100 50\n\n90 100\n", "f.txt: line 4: size 90 is below the previous size 100"},
            {"0 0\n100 50\n200 40\n300 100\n",
             "f.txt: line 3: cumulative percent 40 is below the previous percent 50"},
            {"0 0\n100 101\n", "f.txt: line 2: cumulative percent 101 is outside 0..100"},
            {"0 -1\n100 100\n", "f.txt: line 1: cumulative percent -1 is outside 0..100"},
            {"0 0\n100 50\n200 99.5\n",
             "f.txt: line 3: the last cumulative percent is 99.5, not 100"},
            {"0 0\n100\n", "f.txt: line 2: expected \"size_bytes cumulative_percent\""},
            {"0 0\n100 50 7\n", "f.txt: line 2: expected \"size_bytes cumulative_percent\""},
            {"0 0\n-5 50\n", "f.txt: line 2: size '-5' is not a whole number of bytes"},
            {"0 0\n1e3 50\n", "f.txt: line 2: size '1e3' is not a whole number of bytes"},
            {"0 0\n100 half\n", "f.txt: line 2: cumulative percent 'half' is not a number"},
        };
        for (const auto& [text, message] : cases)
        {
            FlowSizeDistribution d;
            std::istringstream in(text);
            NS_TEST_EXPECT_MSG_EQ(d.Parse(in, "f.txt"), message, "input: " << text);
            NS_TEST_EXPECT_MSG_EQ(d.IsLoaded(), false, "nothing loaded: " << text);
        }
        // A file: its name in the message; a refused file leaves a loaded distribution alone.
        std::string path = "/tmp/llm-fabric-fsd-test-" + std::to_string(getpid()) + ".txt";
        std::ofstream(path) << "1000 0\n2000 60\n1500 100\n";
        FlowSizeDistribution d;
        NS_TEST_ASSERT_MSG_EQ(d.LoadBuiltIn("hadoop"), "", "hadoop");
        NS_TEST_EXPECT_MSG_EQ(d.Load(path),
                              path + ": line 3: size 1500 is below the previous size 2000",
                              "file message");
        NS_TEST_EXPECT_MSG_EQ(d.GetPoints().size(), 20u, "still hadoop");
        std::remove(path.c_str());
        NS_TEST_EXPECT_MSG_EQ(d.Load(path), path + ": cannot open the file", "missing file");
        NS_TEST_EXPECT_MSG_EQ(d.SetPoints({{5, 0}, {3, 100}}, "code"),
                              "code: line 2: size 3 is below the previous size 5",
                              "SetPoints counts points as lines");
    }
};

/**
 * @ingroup llm-fabric-tests
 * RdmaFlowGenerator on a 4-host star at 10 Gb/s, load 0.3 for 1 ms, sizes uniform on
 * 1000..9000 bytes (mean 5000): every host starts flows at
 * lambda = 0.3 x 10^10 / (8 x 5000) = 75,000 per second, so 4 hosts in 1 ms start a Poisson
 * number of flows of mean 4 x 75 = 300 and standard deviation sqrt(300) = 17.3. The count must
 * lie within 4 standard deviations (230.7..369.3), every flow must complete, no flow goes to
 * its own source, and every size lies in 1000..9000.
 */
class RdmaFlowGeneratorTestCase : public TestCase
{
  public:
    RdmaFlowGeneratorTestCase()
        : TestCase("Flow generator: Poisson count at load 0.3 for 1 ms, every flow completes")
    {
    }

  private:
    void DoRun() override
    {
        Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(1000));
        RoceTopologyHelper topo;
        RoceFabric fabric;
        std::vector<Ptr<RdmaEndpoint>> endpoints =
            MakeRdmaStar(4, topo, fabric, DataRate("10Gbps"));

        FlowSizeDistribution sizes;
        NS_TEST_ASSERT_MSG_EQ(sizes.SetPoints({{1000, 0}, {9000, 100}}, "uniform"), "", "CDF");
        NS_TEST_ASSERT_MSG_EQ(sizes.GetMean(), 5000.0, "mean 5000 bytes");
        Ptr<RdmaFlowGenerator> generator = CreateObject<RdmaFlowGenerator>();
        generator->SetAttribute("Load", DoubleValue(0.3));
        generator->SetAttribute("StopTime", TimeValue(MilliSeconds(1)));
        generator->SetDistribution(sizes);
        generator->AssignStreams(100);
        NS_TEST_ASSERT_MSG_EQ(generator->Install(endpoints), "", "install");
        for (uint32_t h = 0; h < 4; ++h)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(generator->GetArrivalRate(h), 75000.0, 1e-6, "lambda");
        }
        Simulator::Run();

        double expected = 300;
        double sd = std::sqrt(expected);
        double started = generator->GetFlowsStarted();
        NS_TEST_EXPECT_MSG_GT(started, expected - 4 * sd, "flows started: " << started);
        NS_TEST_EXPECT_MSG_LT(started, expected + 4 * sd, "flows started: " << started);
        NS_TEST_EXPECT_MSG_EQ(generator->GetFlowsCompleted(),
                              generator->GetFlowsStarted(),
                              "every flow completes");
        for (const auto& flow : generator->GetFlows())
        {
            NS_TEST_EXPECT_MSG_NE(flow.source, flow.destination, "no flow to itself");
            NS_TEST_EXPECT_MSG_EQ((flow.bytes >= 1000 && flow.bytes <= 9000), true, "size");
            NS_TEST_EXPECT_MSG_LT(flow.start, MilliSeconds(1), "started before StopTime");
            NS_TEST_EXPECT_MSG_EQ(flow.done, true, "done");
            NS_TEST_EXPECT_MSG_GT(flow.end, flow.start, "ends after its start");
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * A flow generator without Poisson arrivals (Load 0: the flows come from AddRandomFlows or
 * AddPoissonIncasts), installed on every host of a star with 1 us links.
 * @param hosts the hosts of the star.
 * @param rate the links' rate.
 * @param[out] problem what Install returned ("" on success).
 * @return the generator.
 */
Ptr<RdmaFlowGenerator>
GeneratorOnStar(uint32_t hosts, DataRate rate, std::string& problem)
{
    RoceTopologyHelper topo;
    RoceFabric fabric = topo.BuildStar(hosts, rate, MicroSeconds(1));
    RdmaHelper rdma;
    std::vector<Ptr<RdmaEndpoint>> endpoints = rdma.Install(fabric);
    Ptr<RdmaFlowGenerator> generator = CreateObject<RdmaFlowGenerator>();
    generator->SetAttribute("Load", DoubleValue(0));
    problem = generator->Install(endpoints);
    return generator;
}

/**
 * @ingroup llm-fabric-tests
 * Random flows: 2,000 flows between 4 hosts, sizes log-uniform in [1,000, 1,000,000] bytes
 * (three decades), starts in [0, 1 ms). No flow goes to its own source; every size lies in its
 * range; log-uniform means each decade holds a third of the flows: a count per
 * decade is binomial(2000, 1/3), mean 666.7 and standard deviation sqrt(2000 x 1/3 x 2/3) =
 * 21.1, so each lies within 4 standard deviations, 582..751; the sources are uniform over the 4
 * hosts, binomial(2000, 1/4), mean 500, sd 19.4, within 422..578.
 */
class RdmaFlowGeneratorRandomFlowsTestCase : public TestCase
{
  public:
    RdmaFlowGeneratorRandomFlowsTestCase()
        : TestCase("Flow generator: random pairs, log-uniform sizes, uniform starts")
    {
    }

  private:
    void DoRun() override
    {
        std::string problem;
        Ptr<RdmaFlowGenerator> generator = GeneratorOnStar(4, DataRate("10Gbps"), problem);
        NS_TEST_ASSERT_MSG_EQ(problem, "", "install");
        generator->AddRandomFlows(2000, 1000, 1000000, MilliSeconds(1), 7);
        std::vector<uint32_t> perDecade(3, 0);
        std::vector<uint32_t> perSource(4, 0);
        for (const auto& flow : generator->GetFlows())
        {
            NS_TEST_EXPECT_MSG_NE(flow.source, flow.destination, "no flow to itself");
            NS_TEST_ASSERT_MSG_EQ((flow.bytes >= 1000 && flow.bytes <= 1000000), true, "size");
            ++perDecade[flow.bytes < 10000 ? 0 : (flow.bytes < 100000 ? 1 : 2)];
            ++perSource[flow.source];
        }
        NS_TEST_ASSERT_MSG_EQ(generator->GetFlows().size(), 2000u, "every flow added");
        for (uint32_t d = 0; d < 3; ++d)
        {
            NS_TEST_EXPECT_MSG_GT(perDecade[d], 582u, "decade " << d);
            NS_TEST_EXPECT_MSG_LT(perDecade[d], 751u, "decade " << d);
        }
        for (uint32_t h = 0; h < 4; ++h)
        {
            NS_TEST_EXPECT_MSG_GT(perSource[h], 422u, "source " << h);
            NS_TEST_EXPECT_MSG_LT(perSource[h], 578u, "source " << h);
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup llm-fabric-tests
 * Poisson incasts on an 8-host star at 100 Gb/s: load 0.5 of the hosts' 800 Gb/s, 3 senders of
 * 1000 bytes each, arrivals in [0, 100 us). lambda = 0.5 x 8 x 10^11 / (8 x 3 x 1000) =
 * 1.667 x 10^7 incasts per second: a Poisson count of mean 1666.7 and standard deviation 40.8,
 * within 4 of them (1503.4..1829.9). Every incast's 3 flows share their start and receiver,
 * come from 3 distinct other hosts and carry 1000 bytes; starts do not decrease and lie in
 * the window; all complete. Receivers are uniform: each host receives binomial(N, 1/8) incasts (sd
 * sqrt(N x 7/64)); each host sends in binomial(N, 3/8) of them (not the receiver, 7/8, then
 * picked, 3/7; sd sqrt(N x 15/64)); both within 4 standard deviations. The same stream gives
 * the same incasts.
 */
class RdmaFlowGeneratorIncastTestCase : public TestCase
{
  public:
    RdmaFlowGeneratorIncastTestCase()
        : TestCase("Flow generator: Poisson incasts at a load, distinct senders, one receiver")
    {
    }

  private:
    /**
     * Build the star, add the incasts and return their flows.
     * @param stream the stream of the draws.
     * @param[out] indices the flow indices AddPoissonIncasts returned.
     * @return the flows.
     */
    static std::vector<RdmaFlowGenerator::Flow> Incasts(int64_t stream,
                                                        std::vector<uint32_t>& indices)
    {
        std::string problem;
        Ptr<RdmaFlowGenerator> generator = GeneratorOnStar(8, DataRate("100Gbps"), problem);
        indices = generator->AddPoissonIncasts(0.5, 3, 1000, MicroSeconds(100), stream);
        Simulator::Run();
        std::vector<RdmaFlowGenerator::Flow> flows = generator->GetFlows();
        Simulator::Destroy();
        return flows;
    }

    void DoRun() override
    {
        std::vector<uint32_t> indices;
        std::vector<RdmaFlowGenerator::Flow> flows = Incasts(9, indices);
        NS_TEST_ASSERT_MSG_EQ(indices.size(), flows.size(), "every flow is an incast flow");
        NS_TEST_ASSERT_MSG_EQ(flows.size() % 3, 0u, "3 flows per incast");
        const double n = static_cast<double>(flows.size() / 3);
        NS_TEST_EXPECT_MSG_GT(n, 1503.4, "incasts");
        NS_TEST_EXPECT_MSG_LT(n, 1829.9, "incasts");
        std::vector<double> received(8, 0);
        std::vector<double> sent(8, 0);
        for (size_t i = 0; i < flows.size(); i += 3)
        {
            const auto& a = flows[i];
            NS_TEST_ASSERT_MSG_EQ(indices[i], i, "indices in order");
            NS_TEST_ASSERT_MSG_LT(a.start, MicroSeconds(100), "in the window");
            NS_TEST_ASSERT_MSG_EQ((i == 0 || a.start >= flows[i - 1].start), true, "in order");
            received[a.destination] += 1;
            for (size_t k = i; k < i + 3; ++k)
            {
                NS_TEST_ASSERT_MSG_EQ(flows[k].destination, a.destination, "one receiver");
                NS_TEST_ASSERT_MSG_NE(flows[k].source, a.destination, "not its own sender");
                NS_TEST_ASSERT_MSG_EQ(flows[k].bytes, 1000u, "bytes");
                NS_TEST_ASSERT_MSG_EQ(flows[k].start, a.start, "one start");
                NS_TEST_ASSERT_MSG_EQ(flows[k].done, true, "completes");
                sent[flows[k].source] += 1;
            }
            NS_TEST_ASSERT_MSG_EQ((a.source != flows[i + 1].source &&
                                   a.source != flows[i + 2].source &&
                                   flows[i + 1].source != flows[i + 2].source),
                                  true,
                                  "distinct senders");
        }
        for (uint32_t h = 0; h < 8; ++h)
        {
            NS_TEST_EXPECT_MSG_LT(std::abs(received[h] - n / 8), 4 * std::sqrt(n * 7 / 64), h);
            NS_TEST_EXPECT_MSG_LT(std::abs(sent[h] - 3 * n / 8), 4 * std::sqrt(n * 15 / 64), h);
        }
        std::vector<uint32_t> again;
        std::vector<RdmaFlowGenerator::Flow> same = Incasts(9, again);
        bool equal = same.size() == flows.size();
        for (size_t i = 0; equal && i < flows.size(); ++i)
        {
            equal =
                same[i].source == flows[i].source && same[i].destination == flows[i].destination;
        }
        NS_TEST_EXPECT_MSG_EQ(equal, true, "the same stream, the same incasts");
        Config::Reset();
    }
};

/**
 * @ingroup llm-fabric-tests
 * Flow-size distributions and the RDMA flow generator.
 */
class FlowSizeDistributionTestSuite : public TestSuite
{
  public:
    FlowSizeDistributionTestSuite()
        : TestSuite("llm-fabric-flow-size-distribution", Type::UNIT)
    {
        AddTestCase(new FlowSizeHandCdfTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FlowSizeBuiltInTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FlowSizeSampleMeanTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FlowSizeMalformedTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaFlowGeneratorTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaFlowGeneratorRandomFlowsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new RdmaFlowGeneratorIncastTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static FlowSizeDistributionTestSuite g_flowSizeDistributionTestSuite;

} // namespace tests
} // namespace llmfabric
