/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/cc-comparison.h"
#include "ns3/dcqcn.h"
#include "ns3/figure-script.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/rdma-cc-none.h"
#include "ns3/test.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of CcComparison, the table behind llm-fabric-cc-compare: size buckets, nearest-rank
 * percentiles, the CSV files and the gnuplot script, the parsing of the program's lists, and the
 * idle paths and base RTT of a leaf-spine, each against values derived by hand.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * @param path a file.
 * @return its lines (none if it cannot be read).
 */
std::vector<std::string>
ReadLines(const std::string& path)
{
    std::vector<std::string> lines;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);)
    {
        lines.push_back(line);
    }
    return lines;
}

/**
 * @param line a CSV line.
 * @return its fields (a trailing empty field kept).
 */
std::vector<std::string>
Fields(const std::string& line)
{
    std::vector<std::string> fields;
    std::string field;
    std::istringstream in(line);
    while (std::getline(in, field, ','))
    {
        fields.push_back(field);
    }
    if (!line.empty() && line.back() == ',')
    {
        fields.emplace_back();
    }
    return fields;
}

/**
 * A flow of a hand-made run.
 * @param bytes its size.
 * @param fctUs its FCT.
 * @param idealUs its ideal FCT.
 * @param done whether it finished.
 * @param incast whether it is an incast flow.
 * @return the flow.
 */
CcComparison::FlowResult
Flow(uint64_t bytes, double fctUs, double idealUs, bool done = true, bool incast = false)
{
    CcComparison::FlowResult f;
    f.source = 1;
    f.destination = 2;
    f.bytes = bytes;
    f.fctUs = fctUs;
    f.idealUs = idealUs;
    f.done = done;
    f.incast = incast;
    f.startUs = 3.5;
    return f;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * Buckets at the default decades and at other edges; nearest-rank percentiles.
 */
class CcComparisonBucketsTestCase : public TestCase
{
  public:
    CcComparisonBucketsTestCase()
        : TestCase("Size buckets at 1K, 10K, 100K, 1M, 10M; nearest-rank percentiles")
    {
    }

  private:
    void DoRun() override
    {
        CcComparison c;
        NS_TEST_ASSERT_MSG_EQ(c.GetBucketCount(), 6, "five edges, six buckets");
        // [0, 1000), [1000, 10^4), ..., [10^7, inf): an edge belongs to the bucket above it.
        const std::pair<uint64_t, uint32_t> sizes[] = {{1, 0},
                                                       {999, 0},
                                                       {1000, 1},
                                                       {9999, 1},
                                                       {10000, 2},
                                                       {999999, 3},
                                                       {1000000, 4},
                                                       {10000000, 5},
                                                       {30000000, 5}};
        for (const auto& [bytes, bucket] : sizes)
        {
            NS_TEST_EXPECT_MSG_EQ(c.GetBucket(bytes), bucket, bytes << " bytes");
        }
        const char* names[] = {"<1K", "1K-10K", "10K-100K", "100K-1M", "1M-10M", ">=10M"};
        for (uint32_t b = 0; b < 6; ++b)
        {
            NS_TEST_EXPECT_MSG_EQ(c.GetBucketName(b), names[b], "bucket " << b);
        }
        NS_TEST_EXPECT_MSG_EQ(c.SetBucketEdges({1000, 1000}),
                              "bucket edges must increase from above 0 (edge 2: 1000)",
                              "equal edges");
        NS_TEST_EXPECT_MSG_EQ(c.SetBucketEdges({0}),
                              "bucket edges must increase from above 0 (edge 1: 0)",
                              "zero edge");
        NS_TEST_EXPECT_MSG_EQ(c.GetBucketCount(), 6, "unchanged by a refused list");
        NS_TEST_ASSERT_MSG_EQ(c.SetBucketEdges({1500, 2500000}), "", "other edges");
        NS_TEST_EXPECT_MSG_EQ(c.GetBucketName(0), "<1500", "not a whole K");
        NS_TEST_EXPECT_MSG_EQ(c.GetBucketName(1), "1500-2500K", "2.5 M is 2500 K");
        NS_TEST_EXPECT_MSG_EQ(c.GetBucketName(2), ">=2500K", "last");
        NS_TEST_EXPECT_MSG_EQ(c.GetBucket(2499999), 1, "below the edge");

        // {5, 1, 4, 2, 3}: rank ceil(q x 5): p50 rank 3 = 3, p95 and p99 rank 5 = 5, p0 = 1.
        std::vector<double> five = {5, 1, 4, 2, 3};
        NS_TEST_EXPECT_MSG_EQ(CcComparison::Percentile(five, 0.5), 3, "p50 of 5");
        NS_TEST_EXPECT_MSG_EQ(CcComparison::Percentile(five, 0.95), 5, "p95 of 5");
        NS_TEST_EXPECT_MSG_EQ(CcComparison::Percentile(five, 0), 1, "p0 of 5");
        // 1..100: rank 50, 95, 99.
        std::vector<double> hundred;
        for (int i = 100; i >= 1; --i)
        {
            hundred.push_back(i);
        }
        NS_TEST_EXPECT_MSG_EQ(CcComparison::Percentile(hundred, 0.5), 50, "p50 of 100");
        NS_TEST_EXPECT_MSG_EQ(CcComparison::Percentile(hundred, 0.95), 95, "p95 of 100");
        NS_TEST_EXPECT_MSG_EQ(CcComparison::Percentile(hundred, 0.99), 99, "p99 of 100");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(CcComparison::Percentile({}, 0.5)), true, "no values");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The bucket table, the flow table and the gnuplot script of two hand-made runs, and the
 * picture gnuplot draws from them (skipped without gnuplot).
 *
 * Run 1 ("t1", "a"): flows of 500 B (FCT 20 us, ideal 10: slowdown 2), 800 B (30 / 10: 3),
 * 5000 B (20 / 20: 1), 2 x 10^7 B (not finished) and an incast flow of 500,000 B (500 / 50:
 * 10). Its rows: "<1K" 2 flows, slowdowns {2, 3}: p50 rank 1 = 2, p95 and p99 rank 2 = 3;
 * "1K-10K" 1 flow, all 1; "10K-100K", "100K-1M" and "1M-10M" none (the 500 KB flow is an
 * incast flow, in its own bucket); ">=10M" 1 flow, none finished, empty percentiles; "all" 5 flows,
 * 4 finished, {1, 2, 3, 10}: p50 rank 2 = 2, p95 rank 4 = 10; "incast" 1 flow, 10. Run 2 ("t2",
 * "b") has one flow and no incast: 7 rows.
 */
class CcComparisonOutputsTestCase : public TestCase
{
  public:
    CcComparisonOutputsTestCase()
        : TestCase("The bucket table, the flow table, the gnuplot script and its picture")
    {
    }

  private:
    void DoRun() override
    {
        CcComparison c;
        CcComparison::RunResult one;
        one.traffic = "t1";
        one.cc = "a";
        one.flows = {Flow(500, 20, 10),
                     Flow(800, 30, 10),
                     Flow(5000, 20, 20),
                     Flow(20000000, 0, 1600, false),
                     Flow(500000, 500, 50, true, true)};
        one.queueP50Bytes = 7;
        one.queueP99Bytes = 8;
        one.queueMaxBytes = 9;
        one.pfcPauses = 4;
        one.utilization = 0.25;
        CcComparison::RunResult two;
        two.traffic = "t2";
        two.cc = "b";
        two.flows = {Flow(100, 10, 10)};
        c.AddRun(one);
        c.AddRun(two);

        std::string csv = CreateTempDirFilename("cc-compare.csv");
        NS_TEST_ASSERT_MSG_EQ(c.WriteCsv(csv), "", "table written");
        std::vector<std::string> lines = ReadLines(csv);
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 1 + 8 + 7, "header, 6 + all + incast, 6 + all");
        NS_TEST_EXPECT_MSG_EQ(lines[0], CcComparison::CSV_HEADER, "header");
        NS_TEST_EXPECT_MSG_EQ(Fields(lines[0]).size(), 16, "16 columns");
        const char* expected[] = {
            "t1,a,<1K,0,0,1000,2,2,2,3,3,7,8,9,4,0.25",
            "t1,a,1K-10K,1,1000,10000,1,1,1,1,1,7,8,9,4,0.25",
            "t1,a,10K-100K,2,10000,100000,0,0,,,,7,8,9,4,0.25",
            "t1,a,100K-1M,3,100000,1000000,0,0,,,,7,8,9,4,0.25",
            "t1,a,1M-10M,4,1000000,10000000,0,0,,,,7,8,9,4,0.25",
            "t1,a,>=10M,5,10000000,,1,0,,,,7,8,9,4,0.25",
            "t1,a,all,,,,5,4,2,10,10,7,8,9,4,0.25",
            "t1,a,incast,,,,1,1,10,10,10,7,8,9,4,0.25",
            "t2,b,<1K,0,0,1000,1,1,1,1,1,0,0,0,0,0",
        };
        for (size_t i = 0; i < 9; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(lines[i + 1], expected[i], "row " << i + 1);
            NS_TEST_EXPECT_MSG_EQ(Fields(lines[i + 1]).size(), 16, "row " << i + 1);
        }
        NS_TEST_EXPECT_MSG_EQ(lines.back(), "t2,b,all,,,,1,1,1,1,1,0,0,0,0,0", "last row");

        std::string flows = CreateTempDirFilename("fct.csv");
        NS_TEST_ASSERT_MSG_EQ(c.WriteFlowsCsv(flows), "", "flows written");
        lines = ReadLines(flows);
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 1 + 5 + 1, "header and six flows");
        NS_TEST_EXPECT_MSG_EQ(lines[0], CcComparison::FLOWS_HEADER, "header");
        NS_TEST_EXPECT_MSG_EQ(lines[1], "t1,a,0,1,2,500,0,3.5,20,10,2", "a finished flow");
        NS_TEST_EXPECT_MSG_EQ(lines[4], "t1,a,3,1,2,20000000,0,3.5,,,", "an unfinished flow");
        NS_TEST_EXPECT_MSG_EQ(lines[5], "t1,a,4,1,2,500000,1,3.5,500,50,10", "an incast flow");
        NS_TEST_EXPECT_MSG_EQ(c.WriteCsv("/nonexistent-dir/x.csv"),
                              "/nonexistent-dir/x.csv: cannot be written",
                              "unwritable");

        CheckScript(c, csv);
    }

    /**
     * The script: two rows of three panels, a line per algorithm; gnuplot draws a PNG.
     * @param c the comparison.
     * @param csv the table it reads.
     */
    void CheckScript(const CcComparison& c, const std::string& csv)
    {
        std::string dir = csv.substr(0, csv.rfind('/'));
        std::string script = dir + "/cc-compare.plt";
        NS_TEST_ASSERT_MSG_EQ(c.WriteGnuplotScript(script, "cc-compare.csv", "cc-compare.png"),
                              "",
                              "script written");
        std::vector<std::string> lines = ReadLines(script);
        std::string text;
        for (const auto& line : lines)
        {
            text += line + "\n";
        }
        NS_TEST_EXPECT_MSG_NE(text.find("set output \"cc-compare.png\"\n"),
                              std::string::npos,
                              "PNG named");
        NS_TEST_EXPECT_MSG_NE(text.find("set multiplot layout 2,3"), std::string::npos, "2 x 3");
        NS_TEST_EXPECT_MSG_NE(text.find("ccs = \"a b\"\n"), std::string::npos, "algorithms");
        auto plots = std::count_if(lines.begin(), lines.end(), [](const std::string& l) {
            return l.rfind("plot for [cc in ccs] \"cc-compare.csv\"", 0) == 0;
        });
        NS_TEST_EXPECT_MSG_EQ(plots, 6, "one plot per traffic set and percentile");
        if (!FigureScript::HaveProgram("gnuplot"))
        {
            ReportSkip(GetName(), "gnuplot is not installed (Debian: gnuplot-nox): no PNG drawn");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(FigureScript::RunGnuplot(script), "", "gnuplot runs");
        std::ifstream png(dir + "/cc-compare.png", std::ios::binary);
        char magic[4] = {};
        png.read(magic, 4);
        NS_TEST_EXPECT_MSG_EQ(std::string(magic + 1, 3), "PNG", "a PNG file");
        NS_TEST_EXPECT_MSG_EQ(static_cast<int>(static_cast<unsigned char>(magic[0])), 0x89, "");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The program's lists: traffic sets and congestion controls, found by alias (new ones
 * automatically) and refused with one line.
 */
class CcComparisonListsTestCase : public TestCase
{
  public:
    CcComparisonListsTestCase()
        : TestCase("Traffic sets and congestion-control lists, the default from the aliases")
    {
    }

  private:
    void DoRun() override
    {
        std::vector<CcComparison::TrafficSet> sets;
        NS_TEST_ASSERT_MSG_EQ(CcComparison::ParseTrafficSets("websearch30,hadoop50+incast", sets),
                              "",
                              "two sets");
        NS_TEST_ASSERT_MSG_EQ(sets.size(), 2, "two sets");
        NS_TEST_EXPECT_MSG_EQ(sets[0].name, "websearch30", "name");
        NS_TEST_EXPECT_MSG_EQ(sets[0].cdf, "websearch", "cdf");
        NS_TEST_EXPECT_MSG_EQ_TOL(sets[0].load, 0.3, 1e-15, "30 %");
        NS_TEST_EXPECT_MSG_EQ(sets[0].incast, false, "no incast");
        NS_TEST_EXPECT_MSG_EQ(sets[1].cdf, "hadoop", "cdf");
        NS_TEST_EXPECT_MSG_EQ_TOL(sets[1].load, 0.5, 1e-15, "50 %");
        NS_TEST_EXPECT_MSG_EQ(sets[1].incast, true, "incast");
        for (const char* bad : {"web30",
                                "websearch",
                                "websearch0",
                                "websearch101",
                                "hadoop5x",
                                "+incast",
                                "websearch30,",
                                ""})
        {
            std::string problem = CcComparison::ParseTrafficSets(bad, sets);
            NS_TEST_EXPECT_MSG_EQ(problem.empty(), false, "refused: '" << bad << "'");
        }
        NS_TEST_EXPECT_MSG_EQ(CcComparison::ParseTrafficSets("hadoop30,hadoop30", sets),
                              "'hadoop30' is given twice",
                              "twice");
        NS_TEST_EXPECT_MSG_EQ(sets.size(), 2, "unchanged by refusals");

        // The default: every alias of the extension point but none and fixed, sorted. This
        // runner also links the test-only RdmaCcTestWindow (alias test-window, in
        // rdma-cc-extension-test-suite.cc): a class that registers an alias is compared with
        // no edit of the program.
        std::vector<std::string> ccs = CcComparison::GetDefaultCongestionControls();
        auto has = [&ccs](const std::string& name) {
            return std::find(ccs.begin(), ccs.end(), name) != ccs.end();
        };
        NS_TEST_EXPECT_MSG_EQ(has("dcqcn"), true, "dcqcn compared");
        NS_TEST_EXPECT_MSG_EQ(has("test-window"), true, "a test-only algorithm appears");
        NS_TEST_EXPECT_MSG_EQ(has("none") || has("fixed"), false, "none and fixed left out");
        NS_TEST_EXPECT_MSG_EQ(std::is_sorted(ccs.begin(), ccs.end()), true, "sorted");

        std::vector<std::pair<std::string, TypeId>> parsed;
        NS_TEST_ASSERT_MSG_EQ(
            CcComparison::ParseCongestionControls("dcqcn,ns3::RdmaCcNone", parsed),
            "",
            "alias and TypeId name");
        NS_TEST_ASSERT_MSG_EQ(parsed.size(), 2, "two");
        NS_TEST_EXPECT_MSG_EQ(parsed[0].second, Dcqcn::GetTypeId(), "dcqcn");
        NS_TEST_EXPECT_MSG_EQ(parsed[1].second, RdmaCcNone::GetTypeId(), "none");
        NS_TEST_EXPECT_MSG_EQ(CcComparison::ParseCongestionControls("dcqcn,ns3::Dcqcn", parsed),
                              "'ns3::Dcqcn' names the same algorithm as 'dcqcn'",
                              "one class twice");
        std::string unknown = CcComparison::ParseCongestionControls("dcqcn,foo", parsed);
        NS_TEST_EXPECT_MSG_EQ(unknown.rfind("unknown congestion control 'foo'", 0),
                              0,
                              "unknown: " << unknown);
        NS_TEST_EXPECT_MSG_EQ(parsed.size(), 2, "unchanged by refusals");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Idle paths of a leaf-spine and its base RTT, on the comparison's default fabric.
 *
 * 4 leaves of 8 hosts, 2 spines, 100 Gb/s host links, 400 Gb/s fabric links, 1 us, MTU 1000.
 * Across leaves the path is 100, 400, 400, 100 Gb/s. One full packet: a 58 + 1000 + 16 (RETH) =
 * 1074-byte frame whose last bit arrives (1074 + 12) bytes after its first leaves: 86.88 ns at
 * 100 Gb/s, 21.72 ns at 400 Gb/s, plus 1 us per hop: 4000 + 2 x 86.88 + 2 x 21.72 = 4217.2 ns;
 * its ACK (62 + 12 = 74 bytes per hop: 5.92 and 1.48 ns) comes back in 4000 + 2 x 5.92 + 2 x
 * 1.48 = 4014.8 ns: base RTT 8232.0 ns. With one leaf the longest path is 2 hops at 100 Gb/s:
 * 2 x 1086.88 + 2 x 1005.92 = 4185.6 ns.
 */
class CcComparisonLeafSpineTestCase : public TestCase
{
  public:
    CcComparisonLeafSpineTestCase()
        : TestCase("Leaf-spine idle paths and base RTT (8232 ns across leaves)")
    {
    }

  private:
    void DoRun() override
    {
        // The comparison's default fabric is the one above.
        RoceTopologyHelper::LeafSpineConfig shape = CcComparison::GetDefaultLeafSpine();
        NS_TEST_ASSERT_MSG_EQ(shape.hostsPerLeaf, 8, "8 hosts per leaf");
        NS_TEST_ASSERT_MSG_EQ(shape.leaves, 4, "4 leaves");
        NS_TEST_ASSERT_MSG_EQ(shape.spines, 2, "2 spines");
        NS_TEST_ASSERT_MSG_EQ(shape.hostRate, DataRate("100Gbps"), "host links");
        NS_TEST_ASSERT_MSG_EQ(shape.fabricRate, DataRate("400Gbps"), "fabric links");
        NS_TEST_ASSERT_MSG_EQ(shape.hostDelay, MicroSeconds(1), "host link delay");
        NS_TEST_ASSERT_MSG_EQ(shape.fabricDelay, MicroSeconds(1), "fabric link delay");
        std::vector<DataRate> same = CcComparison::LeafSpinePath(shape, 0, 7);
        NS_TEST_ASSERT_MSG_EQ(same.size(), 2, "hosts 0 and 7 share leaf 0");
        std::vector<DataRate> across = CcComparison::LeafSpinePath(shape, 7, 8);
        NS_TEST_ASSERT_MSG_EQ(across.size(), 4, "hosts 7 and 8 do not");
        NS_TEST_EXPECT_MSG_EQ(across[1], DataRate("400Gbps"), "fabric hop");
        NS_TEST_EXPECT_MSG_EQ(across[3], DataRate("100Gbps"), "last hop");
        NS_TEST_EXPECT_MSG_EQ(CcComparison::LeafSpineBaseRtt(shape, 1000),
                              NanoSeconds(8232),
                              "across leaves");
        shape.leaves = 1;
        // (Time has a resolution of 1 ns: 4185.6 ns is kept within 1 ns.)
        Time oneLeaf = CcComparison::LeafSpineBaseRtt(shape, 1000);
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(oneLeaf.GetPicoSeconds()) / 1000.0,
                                  4185.6,
                                  1.0,
                                  "one leaf");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The CcComparison test suite.
 */
class CcComparisonTestSuite : public TestSuite
{
  public:
    CcComparisonTestSuite()
        : TestSuite("llm-fabric-cc-comparison", Type::UNIT)
    {
        AddTestCase(new CcComparisonBucketsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CcComparisonOutputsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CcComparisonListsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CcComparisonLeafSpineTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static CcComparisonTestSuite g_ccComparisonTestSuite;

} // namespace tests
} // namespace llmfabric
