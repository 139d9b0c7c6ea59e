/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <map>
#include <sstream>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * llm-fabric-bench-fabric's printed figures: the run's fields in their order, then the
 * bare-scheduler figures, consistent with each other.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * A two-sender incast through the benchmark: it prints the run's fields unchanged and in their
 * order, and the bare-scheduler figures: at least a million bare events (the run has fewer), a
 * positive pending count, and link_frames_per_bare_event equal to link_frames_per_wall_s /
 * bare_scheduler_events_per_s.
 */
class BenchFabricFiguresTestCase : public TestCase
{
  public:
    BenchFabricFiguresTestCase()
        : TestCase("llm-fabric-bench-fabric prints the run's and the bare scheduler's figures")
    {
    }

  private:
    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-bench-fabric", GetName());
        if (program.empty())
        {
            return;
        }
        int status = 0;
        std::string out =
            RunCommand(program + " --scenario=incast --senders=2 --bytes=20000 2>&1", status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        std::vector<std::string> keys;
        std::map<std::string, double> value;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);)
        {
            std::istringstream words(line);
            std::string key;
            double v = 0;
            if (words >> key >> v)
            {
                keys.push_back(key);
                value[key] = v;
            }
        }
        const std::vector<std::string> expected = {"simulated_us",
                                                   "events",
                                                   "link_frames",
                                                   "events_per_link_frame",
                                                   "wall_s",
                                                   "link_frames_per_wall_s",
                                                   "events_per_wall_s",
                                                   "peak_rss_mib",
                                                   "bare_scheduler_pending",
                                                   "bare_scheduler_events",
                                                   "bare_scheduler_events_per_s",
                                                   "link_frames_per_bare_event"};
        NS_TEST_ASSERT_MSG_EQ((keys == expected), true, "the fields, in order: " << out);
        // The library's build, on its own line after the scenario's (this runner links the
        // same library, so it sees the same definition).
#ifdef LLM_FABRIC_PGO
        const std::string build = "\nlibrary profile-guided\nsimulated_us ";
#else
        const std::string build = "\nlibrary without-profile\nsimulated_us ";
#endif
        NS_TEST_EXPECT_MSG_NE(out.find(build), std::string::npos, "the library's build: " << out);
        // 2 x 20,000 B at 1000 B a packet: 40 data packets, each crossing two links; far fewer
        // than a million events, so the bare run takes the floor of a million.
        NS_TEST_EXPECT_MSG_LT(value["events"], 1e6, "a small run");
        NS_TEST_EXPECT_MSG_EQ(value["bare_scheduler_events"], 1e6, "a million bare events");
        NS_TEST_EXPECT_MSG_GT(value["bare_scheduler_pending"], 0, "events were pending");
        NS_TEST_EXPECT_MSG_GT(value["bare_scheduler_events_per_s"], 0, "a bare rate");
        // The figures are printed with 6 significant digits: a relative tolerance of 1e-4.
        double ratio = value["link_frames_per_wall_s"] / value["bare_scheduler_events_per_s"];
        NS_TEST_EXPECT_MSG_EQ_TOL(value["link_frames_per_bare_event"],
                                  ratio,
                                  ratio * 1e-4,
                                  "link frames per wall-second / bare events per second");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The benchmark's test suite.
 */
class BenchFabricTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    BenchFabricTestSuite()
        : TestSuite("llm-fabric-bench-fabric", Type::SYSTEM)
    {
        AddTestCase(new BenchFabricFiguresTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static BenchFabricTestSuite g_benchFabricTestSuite;

} // namespace tests
} // namespace llmfabric
