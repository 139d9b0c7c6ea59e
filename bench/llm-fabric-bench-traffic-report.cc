/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * Speed and memory of the analytical traffic report (TrafficReport) as the job grows: a
 * --model (llama3-70b) with tp --tp (8) x pp --pp (4) x dp --dp (4096) ranks, --gpusPerServer
 * (8) GPUs per server, rank order tp-cp-pp-ep-dp, 4 sequences of 8192 tokens per data-parallel
 * rank and iteration (m = 4 micro-batches of 1), ring all-reduce and direct send/recv: the
 * scenarios of issue 14 (dp 256, 1024, 4096; dp 3200 is 102,400 GPUs). Times what
 * llm-fabric-traffic-report does without --json: Build, every rank's totals (GetTotals), and
 * the search for the busiest rank (GetRequiredBandwidth of every rank).
 *
 * Printed: ranks, seconds of each phase and in all, ranks per second, peak RSS.
 *
 * Run: ./ns3 run "llm-fabric-bench-traffic-report --dp=3200"
 */

#include "ns3/command-line.h"
#include "ns3/gpu-spec.h"
#include "ns3/program-options.h"
#include "ns3/scenario.h"
#include "ns3/traffic-report.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <sstream>
#include <sys/resource.h>

using namespace ns3;

namespace
{

/// Stop with "program: --key: reason" and exit status 2.
void
Fail(const std::string& key, const std::string& reason)
{
    std::cerr << "llm-fabric-bench-traffic-report: --" << key << ": " << reason << std::endl;
    std::exit(2);
}

/// @return the seconds since @p start.
double
Since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string model = "llama3-70b";
    uint32_t tp = 8;
    uint32_t pp = 4;
    uint32_t dp = 4096;
    uint32_t gpusPerServer = 8;

    ProgramOptions cmd("llm-fabric-bench-traffic-report",
                       "Speed of the analytic traffic report over many GPUs.");
    cmd.AddValue("model", "model preset", model);
    cmd.AddValue("tp", "tensor-parallel degree", tp);
    cmd.AddValue("pp", "pipeline-parallel degree", pp);
    cmd.AddValue("dp", "data-parallel degree", dp);
    cmd.AddValue("gpusPerServer", "GPUs per server", gpusPerServer);
    cmd.ParseOrExit(argc, argv);
    for (auto [key, value] : {std::make_pair("tp", tp),
                              std::make_pair("pp", pp),
                              std::make_pair("dp", dp),
                              std::make_pair("gpusPerServer", gpusPerServer)})
    {
        if (value == 0)
        {
            Fail(key, "must be positive");
        }
    }
    const uint64_t gpus = uint64_t{tp} * pp * dp;
    if (gpus > UINT32_MAX)
    {
        Fail("dp", "tp x pp x dp = " + std::to_string(gpus) + " GPUs exceed 2^32 - 1");
    }
    // 4 sequences of 8192 tokens per data-parallel rank: 32768 dp tokens.
    std::ostringstream yaml;
    yaml << "model:\n  preset: " << model << "\n"
         << "training:\n  global_batch_tokens: " << uint64_t{32768} * dp << "\n"
         << "  micro_batch: 1\n  sequence_length: 8192\n"
         << "layout:\n  tp: " << tp << "\n  pp: " << pp << "\n  dp: " << dp << "\n"
         << "  rank_order: tp-cp-pp-ep-dp\n"
         << "cluster:\n  gpus: " << gpus << "\n  gpus_per_server: " << gpusPerServer << "\n"
         << "  gpu: h100\n"
         << "collectives:\n  all_reduce: ring\n  send_recv: direct\n";
    Scenario scenario;
    std::string problem = Scenario::LoadFromString(yaml.str(), "bench", scenario);
    if (!problem.empty())
    {
        Fail("model/tp/pp/dp", problem);
    }

    auto start = std::chrono::steady_clock::now();
    TrafficReport report;
    problem = scenario.BuildTrafficReport(report);
    if (!problem.empty())
    {
        Fail("model/tp/pp/dp", problem);
    }
    const double build = Since(start);
    auto phase = std::chrono::steady_clock::now();
    const TrafficTotals totals = report.GetTotals();
    const double allTotals = Since(phase);
    phase = std::chrono::steady_clock::now();
    double busiest = 0;
    for (uint32_t r = 0; r < report.GetRankCount(); ++r)
    {
        busiest = std::max(busiest, report.GetRequiredBandwidth(r));
    }
    const double search = Since(phase);
    const double wall = Since(start);
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    std::cout << "model " << model << " tp " << tp << " pp " << pp << " dp " << dp << std::endl
              << "ranks " << report.GetRankCount() << std::endl
              << "inter_server_bytes_sent " << totals.all.interSent << std::endl
              << "busiest_rank_gbps " << busiest / 1e9 << std::endl
              << "build_s " << build << std::endl
              << "totals_s " << allTotals << std::endl
              << "busiest_search_s " << search << std::endl
              << "wall_s " << wall << std::endl
              << "ranks_per_wall_s " << report.GetRankCount() / wall << std::endl
              << "peak_rss_mib " << usage.ru_maxrss / 1024.0 << std::endl;
    return 0;
}
