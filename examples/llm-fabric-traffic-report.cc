/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * The analytical traffic of one training iteration: from a YAML scenario (model, training,
 * parallel layout, cluster, collective algorithms), every collective each GPU rank takes part
 * in, the bytes it sends and receives per strategy (DP, TP, PP, CP, EP), inside its server and
 * across the network, and the network bandwidth each rank needs for its communication to hide
 * behind its compute. No packet is simulated: this is the traffic the packet-level runs carry.
 *
 * Output: a table per strategy on stdout; with --json=FILE the full report (per strategy
 * totals, per rank totals, and every collective of the ranks chosen by --ranks).
 *
 * Run: ./ns3 run "llm-fabric-traffic-report --scenario=scenarios/gpt3-175b.yaml --json=r.json"
 */

#include "ns3/core-module.h"
#include "ns3/gpu-spec.h"
#include "ns3/parallel-layout.h"
#include "ns3/program-options.h"
#include "ns3/scenario.h"
#include "ns3/traffic-report.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/type-id-alias.h"
#include "ns3/usage-error.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace ns3;

namespace
{

/// Stop with "program: --key: reason" and exit status 2.
void
Fail(const std::string& key, const std::string& reason)
{
    UsageError::Exit("llm-fabric-traffic-report", key, reason);
}

/// @return a byte count in GB with three decimals.
std::string
Gb(uint64_t bytes)
{
    std::ostringstream os;
    os << std::fixed << std::setprecision(3) << static_cast<double>(bytes) / 1e9;
    return os.str();
}

/// @return the JSON object of a TrafficBytes.
nlohmann::ordered_json
Json(const TrafficBytes& b)
{
    return {{"intra_sent", b.intraSent},
            {"inter_sent", b.interSent},
            {"intra_received", b.intraReceived},
            {"inter_received", b.interReceived}};
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string scenarioPath;
    std::string jsonPath;
    std::string ranks = "all";

    ProgramOptions cmd("llm-fabric-traffic-report",
                       "The analytic traffic of one training iteration of a YAML scenario.");
    cmd.AddRequired("scenario",
                    "YAML scenario file",
                    scenarioPath,
                    "a scenario file is required (see scenarios/)");
    cmd.AddValue("json", "Write the full report to this JSON file", jsonPath);
    cmd.AddValue("ranks", "Ranks whose collectives go to the JSON: all, or a comma list", ranks);
    cmd.ParseOrExit(argc, argv);
    Scenario scenario;
    std::string problem = Scenario::Load(scenarioPath, scenario);
    if (!problem.empty())
    {
        UsageError::Exit(problem);
    }
    if (scenario.HasJobs())
    {
        UsageError::Exit(scenarioPath +
                         ": jobs: llm-fabric-traffic-report reads a scenario of one job");
    }
    TrafficReport report;
    problem = scenario.BuildTrafficReport(report);
    if (!problem.empty())
    {
        UsageError::Exit(scenarioPath + ": " + problem);
    }
    std::set<uint32_t> chosen;
    if (ranks != "all")
    {
        std::istringstream in(ranks);
        for (std::string r; std::getline(in, r, ',');)
        {
            char* end = nullptr;
            unsigned long v = std::strtoul(r.c_str(), &end, 10);
            if (r.empty() || *end != '\0' || v >= report.GetRankCount())
            {
                Fail("ranks",
                     "'" + r + "' is not a rank below " + std::to_string(report.GetRankCount()));
            }
            chosen.insert(static_cast<uint32_t>(v));
        }
    }

    Ptr<TransformerSpec> model = scenario.GetModel();
    Ptr<ParallelLayout> layout = scenario.GetLayout();
    TrafficTotals totals = report.GetTotals();
    double maxBandwidth = 0;
    uint32_t busiest = 0;
    Time compute = report.GetComputeTime(0);
    for (uint32_t r = 0; r < report.GetRankCount(); ++r)
    {
        double bw = report.GetRequiredBandwidth(r);
        if (bw > maxBandwidth)
        {
            maxBandwidth = bw;
            busiest = r;
        }
    }
    std::cout << "Scenario " << scenarioPath << ": " << model->GetParameterCount()
              << " parameters on " << scenario.GetGpus() << " GPUs, " << report.GetMicroBatches()
              << " micro-batches per iteration" << std::endl
              << "One iteration, all ranks together (GB sent; inside servers / across the "
                 "network):"
              << std::endl
              << "  strategy      total      intra      inter" << std::endl;
    for (size_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
    {
        const TrafficBytes& b = totals.byStrategy[s];
        std::cout << "  " << std::left << std::setw(8)
                  << TrafficReport::GetStrategyName(static_cast<TrafficStrategy>(s)) << std::right
                  << std::setw(11) << Gb(b.Sent()) << std::setw(11) << Gb(b.intraSent)
                  << std::setw(11) << Gb(b.interSent) << std::endl;
    }
    std::cout << "  " << std::left << std::setw(8) << "all" << std::right << std::setw(11)
              << Gb(totals.all.Sent()) << std::setw(11) << Gb(totals.all.intraSent) << std::setw(11)
              << Gb(totals.all.interSent) << std::endl
              << "Rank 0 computes for " << compute.GetMicroSeconds() / 1000.0
              << " ms per iteration; the busiest rank (" << busiest << ") needs "
              << maxBandwidth / 1e9 << " Gb/s across the network to hide its communication"
              << std::endl;

    if (!jsonPath.empty())
    {
        // Written with a JSON library (strings escaped, numbers as JSON numbers), one rank per
        // line and streamed: the ranks of a large cluster are never all in memory as JSON.
        std::ofstream json(jsonPath);
        nlohmann::ordered_json totalsJson;
        for (size_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
        {
            totalsJson[TrafficReport::GetStrategyName(static_cast<TrafficStrategy>(s))] =
                Json(totals.byStrategy[s]);
        }
        totalsJson["all"] = Json(totals.all);
        nlohmann::ordered_json head = {{"scenario", scenarioPath},
                                       {"gpus", scenario.GetGpus()},
                                       {"parameters", model->GetParameterCount()},
                                       {"micro_batches", report.GetMicroBatches()},
                                       {"totals", totalsJson}};
        json << "{\n";
        for (const auto& [key, value] : head.items())
        {
            json << "  " << nlohmann::ordered_json(key).dump() << ": " << value.dump() << ",\n";
        }
        json << "  \"ranks\": [\n";
        for (uint32_t r = 0; r < report.GetRankCount(); ++r)
        {
            nlohmann::ordered_json rank = {
                {"rank", r},
                {"server", layout->GetServer(r)},
                {"compute_s", report.GetComputeTime(r).GetSeconds()},
                {"required_bandwidth_bps", report.GetRequiredBandwidth(r)},
                {"all", Json(report.GetRankTotals(r).all)}};
            if (ranks == "all" || chosen.count(r))
            {
                nlohmann::ordered_json collectives = nlohmann::ordered_json::array();
                for (const auto& e : report.GetRankEntries(r))
                {
                    collectives.push_back({{"strategy", TrafficReport::GetStrategyName(e.strategy)},
                                           {"variant", e.variant},
                                           {"what", e.what},
                                           {"kind", GetCollectiveKindName(e.kind)},
                                           {"algorithm", TypeIdAlias::GetShortName(e.algorithm)},
                                           {"group_size", e.GetGroupSize()},
                                           {"message_bytes", e.messageBytes},
                                           {"count", e.count},
                                           {"phase", TrafficReport::GetPhaseName(e.phase)},
                                           {"bytes", Json(e.bytes)}});
                }
                rank["collectives"] = collectives;
            }
            json << "    " << rank.dump() << (r + 1 < report.GetRankCount() ? "," : "") << "\n";
        }
        json << "  ]\n}\n";
        if (!json)
        {
            Fail("json", "cannot write " + jsonPath);
        }
        std::cout << "Full report: " << jsonPath << std::endl;
    }
    return 0;
}
