/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * LLM training over the simulated fabric: the module's main program. A YAML scenario names a
 * model, a training setup, a parallel layout, a cluster and its topology; every GPU rank runs its
 * iteration schedule (compute phases as timed events, collectives through the chosen algorithms)
 * while the collectives cross the RoCE fabric packet by packet between servers and NVLink inside
 * them.
 *
 * Topology: from the scenario's topology section (rail-optimized leaf-spine by default, one NIC
 * per GPU); NVLink domain per server (ns3::NvlinkDomain attributes).
 *
 * Transport and switches: the scenario's network section (doc/scenario-schema.rst) gives the
 * defaults of the options below, and the options override it. RC queue pairs with RDMA MTU
 * --mtu (4096), --channels queue pairs per NIC pair,
 * congestion control --cc (none, fixed or dcqcn; DCQCN with the parameters of --dcqcnProfile, mlx5
 * by default: the paper's sigcomm2015 values were chosen for 40 Gb/s and recover far too slowly
 * at 400 Gb/s; simai is the HPCC-lineage simulators' set), priority 3 lossless with --pfc=1,
 * switch buffer --bufferSize with ECN thresholds --kmin, --kmax, --pmax.
 *
 * Expected: the iterations finish; on a non-blocking fabric the collectives' slowdowns (time
 * over the analytical time at line rate) stay near 1 and exposed communication is what the
 * schedule cannot overlap; oversubscription, incast (expert-parallel all-to-all) and PFC show up
 * as larger slowdowns, pauses and a longer iteration.
 *
 * Outputs in --outDir (created if missing), written as the run goes: iterations.csv,
 * collectives.csv, flows.csv (see TrainingMonitor), then ports.csv (every active port's
 * counters) and summary.json: scenario, gpus, servers, topology, iterations (per iteration:
 * time_us and the mean per rank of compute_us, communication_us, exposed_us, bubble_us),
 * iteration_time_us, collective_time_us, collective_slowdown, fct_us, slowdown (RDMA transfers;
 * each {min, p50, p99, p999, max, mean}), collectives, transfers, data_packets,
 * retransmitted_packets, link_frames, pfc_pause_frames, drops, ecn_marks, cnps, max_queue_bytes,
 * simulated_us, events, wall_s, peak_rss_mib. A readable summary goes to stdout, a progress line
 * to stderr every 10 s of wall-clock time. --pcap=PREFIX writes pcaps of rank 0's NIC and of the
 * ports of the first switch. --sampleInterval=T (e.g. 10us) also writes queue.csv (every port's
 * queue per priority every T) and pauses.csv (every PFC pause interval) as the run goes.
 * Figures (FigureScript), written at the end: iterations.plt (compute, exposed communication
 * and bubble per rank in the last iteration), fct-slowdown.plt (the transfers of flows.csv),
 * with --sampleInterval queue.plt and pauses.plt; with gnuplot installed, their PNGs.
 *
 * Faults and stragglers: the scenario's faults: section (doc/scenario-schema.rst) and the
 * options of ns3::FaultOptions (--linkDown=A:B@TIME, --linkUp, --linkDegrade=A:B@TIME=FRACTION,
 * --linkBer=A:B=BER, --nicDown=HOST@TIME, --nicUp, --routeConvergenceDelay; nodes named as the
 * topology names them: host<NIC>, leaf0, spine1, rail0-leaf0...) and --straggler=RANK=FACTOR
 * (a rank's compute slowed from the start, every iteration). Their effect shows in
 * iterations.csv (the straggler's compute, every rank's exposed communication and bubble) and
 * collectives.csv.
 * Several jobs (a scenario with a jobs list, doc/scenario-schema.rst): the jobs share the
 * fabric; iterations.csv, collectives.csv and flows.csv end every row with a job column (the
 * job's name; ranks and instances are the job's own), summary.json adds jobs (per job: name,
 * gpus, servers, start_us, ranks_finished, iterations, iteration_time_us; the other keys are
 * over all jobs, its "iterations" being the first job's), a line per job is printed, and the
 * iteration breakdown figure is one per job (iterations-NAME.plt).
 * --onlyJob=NAME runs that job alone on its servers of the same fabric, for its time alone;
 * --compareJobs=1 runs every job together, then each alone (outputs in OUTDIR/alone-NAME/), and
 * prints and writes (jobs-compare.csv: job,alone_us,together_us,slowdown) each job's mean
 * iteration time alone and together.
 *
 * Run: ./ns3 run "llm-fabric-train --scenario=scenarios/gpt2-small-16gpu.yaml --outDir=train-out"
 */

#include "ns3/attribute-defaults.h"
#include "ns3/core-module.h"
#include "ns3/dcqcn.h"
#include "ns3/fabric-monitor.h"
#include "ns3/fault-options.h"
#include "ns3/figure-script.h"
#include "ns3/flow-statistics.h"
#include "ns3/llm-training-helper.h"
#include "ns3/network-config.h"
#include "ns3/program-options.h"
#include "ns3/rdma-helper.h"
#include "ns3/rdma-queue-pair.h"
#include "ns3/roce-channel.h"
#include "ns3/switch-mmu.h"
#include "ns3/training-monitor.h"
#include "ns3/type-id-alias.h"
#include "ns3/usage-error.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <sys/resource.h>
#include <vector>

using namespace ns3;

namespace
{

/// Stop with "llm-fabric-train: --key: reason" (or "FILE: KEY: reason") and exit status 2.
void
Fail(const std::string& message)
{
    UsageError::Exit(message);
}

/**
 * @param key a program option.
 * @param reason why its value is refused.
 */
void
FailOption(const std::string& key, const std::string& reason)
{
    Fail("llm-fabric-train: --" + key + ": " + reason);
}

/**
 * A program option that stands for an attribute (or a setting) of the model: given, it becomes
 * the user's value, which the scenario does not replace (AttributeDefaults).
 */
class AttributeOption
{
  public:
    /// Turns the option's text into the user's setting; returns "" or the problem.
    using Apply = std::string (*)(AttributeDefaults& defaults, const std::string& value);

    /**
     * @param name the option's name.
     * @param apply what it does.
     * @param defaults the record of the user's settings.
     * @param problems where a refused value is reported (name, reason).
     */
    AttributeOption(const std::string& name,
                    Apply apply,
                    AttributeDefaults& defaults,
                    std::vector<std::pair<std::string, std::string>>& problems)
        : m_name(name),
          m_apply(apply),
          m_defaults(defaults),
          m_problems(problems)
    {
    }

    /**
     * CommandLine's callback.
     * @param value the option's text.
     * @return true (a problem is reported once the command line is parsed, on one line).
     */
    bool Given(std::string value)
    {
        std::string problem = m_apply(m_defaults, value);
        if (!problem.empty())
        {
            m_problems.emplace_back(m_name, problem);
        }
        return true;
    }

  private:
    std::string m_name;                                           //!< option name
    Apply m_apply;                                                //!< its effect
    AttributeDefaults& m_defaults;                                //!< the user's settings
    std::vector<std::pair<std::string, std::string>>& m_problems; //!< refused values
};

/// --cc: an alias or TypeId name of a RdmaCongestionOps subclass.
std::string
GiveCongestionControl(AttributeDefaults& defaults, const std::string& value)
{
    TypeId tid;
    std::string problem = RdmaHelper::LookupCongestionControl(value, tid);
    return problem.empty() ? defaults.Give("ns3::RdmaEndpoint::CongestionControl", tid.GetName())
                           : problem;
}

/// --dcqcnProfile: the defaults of a DCQCN parameter set.
std::string
GiveDcqcnProfile(AttributeDefaults& defaults, const std::string& value)
{
    std::string problem = Dcqcn::SetDefaultProfile(value);
    if (problem.empty())
    {
        defaults.MarkGiven(NetworkConfig::DCQCN_PROFILE_SETTING);
    }
    return problem;
}

/// --pfc: 1 makes priority 3 lossless, 0 none.
std::string
GivePfc(AttributeDefaults& defaults, const std::string& value)
{
    if (value != "0" && value != "1")
    {
        return "'" + value + "' is not 0 or 1";
    }
    return defaults.Give("ns3::SwitchMmu::LosslessPriorities", value == "1" ? "8" : "0");
}

/// --mtu.
std::string
GiveMtu(AttributeDefaults& defaults, const std::string& value)
{
    return defaults.Give("ns3::RdmaQueuePair::Mtu", value);
}

/// --channels.
std::string
GiveChannels(AttributeDefaults& defaults, const std::string& value)
{
    return defaults.Give("ns3::CollectiveRuntime::Channels", value);
}

/// --bufferSize.
std::string
GiveBuffer(AttributeDefaults& defaults, const std::string& value)
{
    return defaults.Give("ns3::SwitchMmu::Buffer", value);
}

/// --kmin.
std::string
GiveKmin(AttributeDefaults& defaults, const std::string& value)
{
    return defaults.Give("ns3::SwitchMmu::Kmin", value);
}

/// --kmax.
std::string
GiveKmax(AttributeDefaults& defaults, const std::string& value)
{
    return defaults.Give("ns3::SwitchMmu::Kmax", value);
}

/// --pmax.
std::string
GivePmax(AttributeDefaults& defaults, const std::string& value)
{
    return defaults.Give("ns3::SwitchMmu::Pmax", value);
}

/// --recovery.
std::string
GiveRecovery(AttributeDefaults& defaults, const std::string& value)
{
    return defaults.Give("ns3::RdmaQueuePair::Recovery", value);
}

/**
 * Add the options that stand for attributes of the model (each given one becomes the user's
 * value, which the scenario does not replace).
 * @param cmd the command line.
 * @param defaults the record of the user's settings.
 * @param options where the options live while the command line is parsed.
 * @param problems where refused values are reported.
 */
void
AddAttributeOptions(ProgramOptions& cmd,
                    AttributeDefaults& defaults,
                    std::vector<std::unique_ptr<AttributeOption>>& options,
                    std::vector<std::pair<std::string, std::string>>& problems)
{
    auto option = [&](const std::string& name, AttributeOption::Apply apply) {
        options.push_back(std::make_unique<AttributeOption>(name, apply, defaults, problems));
        return MakeCallback(&AttributeOption::Given, options.back().get());
    };

    cmd.AddValue("cc",
                 "Congestion control (ns3::RdmaEndpoint::CongestionControl): an alias (" +
                     TypeIdAlias::ListAliases(RdmaCongestionOps::GetTypeId()) +
                     ") or a TypeId name",
                 option("cc", &GiveCongestionControl));
    cmd.AddValue("dcqcnProfile",
                 "DCQCN parameters: mlx5, sigcomm2015 or simai (default: the scenario's)",
                 option("dcqcnProfile", &GiveDcqcnProfile));
    cmd.AddValue("pfc",
                 "1: priority 3 lossless (PFC); 0: lossy (ns3::SwitchMmu::LosslessPriorities)",
                 option("pfc", &GivePfc));
    cmd.AddValue("mtu", "RDMA MTU (ns3::RdmaQueuePair::Mtu)", option("mtu", &GiveMtu));
    cmd.AddValue("channels",
                 "Queue pairs per NIC pair (ns3::CollectiveRuntime::Channels)",
                 option("channels", &GiveChannels));
    cmd.AddValue("bufferSize",
                 "Switch buffer (ns3::SwitchMmu::Buffer)",
                 option("bufferSize", &GiveBuffer));
    cmd.AddValue("kmin", "ECN Kmin (ns3::SwitchMmu::Kmin)", option("kmin", &GiveKmin));
    cmd.AddValue("kmax", "ECN Kmax (ns3::SwitchMmu::Kmax)", option("kmax", &GiveKmax));
    cmd.AddValue("pmax", "ECN Pmax (ns3::SwitchMmu::Pmax)", option("pmax", &GivePmax));
    cmd.AddValue("recovery",
                 "GoBackN or SelectiveRepeat (ns3::RdmaQueuePair::Recovery)",
                 option("recovery", &GiveRecovery));
}

/// What a run measured, for summary.json and the printed summary.
struct Outcome
{
    uint32_t finished{0};      //!< ranks that finished every iteration
    std::string stalled;       //!< what the first unfinished rank waits for
    uint64_t dataPackets{0};   //!< RDMA data packets sent
    uint64_t retransmitted{0}; //!< of which resent
    uint64_t cnps{0};          //!< CNPs received
    uint64_t linkFrames{0};    //!< frames that crossed a link
    uint64_t events{0};        //!< simulator events
    double wall{0};            //!< wall-clock seconds of Simulator::Run
    Time simulated;            //!< simulated time
    long peakRssKib{0};        //!< peak resident memory, KiB
};

/**
 * @param job the jobs.
 * @param monitor their training monitor.
 * @return per job {name, gpus, servers, start_us, ranks_finished, iterations, iteration_time_us}.
 */
nlohmann::ordered_json
JobsJson(const LlmTrainingHelper& job, const TrainingMonitor& monitor)
{
    nlohmann::ordered_json jobs = nlohmann::ordered_json::array();
    for (uint32_t j = 0; j < job.GetJobs().size(); ++j)
    {
        const LlmTrainingHelper::Job& one = job.GetJobs()[j];
        std::vector<double> iterationUs;
        for (const auto& [i, it] : monitor.GetIterations(j))
        {
            iterationUs.push_back(static_cast<double>((it.end - it.start).GetNanoSeconds()) /
                                  1000.0);
        }
        uint32_t finished = 0;
        for (const auto& app : one.apps)
        {
            finished += app->IsFinished() ? 1 : 0;
        }
        jobs.push_back({{"name", one.name},
                        {"gpus", one.apps.size()},
                        {"servers", one.servers},
                        {"start_us", one.start.GetNanoSeconds() / 1000.0},
                        {"ranks_finished", finished},
                        {"iterations", monitor.Iterations(j)},
                        {"iteration_time_us", FlowStatistics::Distribution(iterationUs)}});
    }
    return jobs;
}

/**
 * Print one line per job of a jobs list: its name, ranks finished, servers, and each
 * iteration's time.
 * @param job the jobs.
 * @param monitor their training monitor.
 */
void
PrintJobs(const LlmTrainingHelper& job, const TrainingMonitor& monitor)
{
    for (uint32_t j = 0; j < job.GetJobs().size(); ++j)
    {
        const LlmTrainingHelper::Job& one = job.GetJobs()[j];
        uint32_t finished = 0;
        for (const auto& app : one.apps)
        {
            finished += app->IsFinished() ? 1 : 0;
        }
        std::cout << "  job " << one.name << ": " << finished << "/" << one.apps.size()
                  << " ranks finished, " << one.servers.size() << " servers from "
                  << one.servers.front() << ", start " << one.start.GetMicroSeconds()
                  << " us, iteration time us:";
        for (const auto& [i, it] : monitor.GetIterations(j))
        {
            std::cout << " " << static_cast<double>((it.end - it.start).GetNanoSeconds()) / 1000.0;
        }
        std::cout << std::endl;
    }
}

/**
 * Write summary.json (see the file comment for its keys).
 * @param path the file.
 * @param scenarioPath the scenario's path.
 * @param job the job.
 * @param monitor its training monitor.
 * @param ports its port monitor.
 * @param outcome what the run measured.
 * @return whether the file was written.
 */
bool
WriteSummary(const std::string& path,
             const std::string& scenarioPath,
             const LlmTrainingHelper& job,
             const TrainingMonitor& monitor,
             const FabricMonitor& ports,
             const Outcome& outcome)
{
    std::vector<double> iterationUs;
    for (const auto& [i, it] : monitor.GetIterations())
    {
        iterationUs.push_back(static_cast<double>((it.end - it.start).GetNanoSeconds()) / 1000.0);
    }
    // Written with a JSON library: a scenario path with quotes or backslashes stays valid.
    nlohmann::ordered_json summary;
    summary["scenario"] = scenarioPath;
    summary["gpus"] = job.GetApplications().size();
    summary["servers"] = job.GetNvlinkDomains().size();
    summary["topology"] = job.GetTopology()->Describe();
    summary["ranks_finished"] = outcome.finished;
    summary["iterations"] = monitor.Iterations();
    summary["iteration_time_us"] = FlowStatistics::Distribution(iterationUs);
    summary["collective_time_us"] = FlowStatistics::Distribution(monitor.GetCollectiveTimesUs());
    summary["collective_slowdown"] = FlowStatistics::Distribution(monitor.GetCollectiveSlowdowns());
    summary["fct_us"] = FlowStatistics::Distribution(monitor.GetFctUs());
    summary["slowdown"] = FlowStatistics::Distribution(monitor.GetSlowdowns());
    summary["collectives"] = monitor.GetCollectives();
    summary["transfers"] = monitor.GetTransfers();
    summary["data_packets"] = outcome.dataPackets;
    summary["retransmitted_packets"] = outcome.retransmitted;
    summary["link_frames"] = outcome.linkFrames;
    summary["pfc_pause_frames"] = ports.GetTotalPauseFramesSent();
    summary["drops"] = ports.GetTotalDrops();
    summary["ecn_marks"] = ports.GetTotalEcnMarks();
    summary["cnps"] = outcome.cnps;
    summary["max_queue_bytes"] = ports.GetMaxQueueBytes();
    summary["simulated_us"] = outcome.simulated.GetNanoSeconds() / 1000.0;
    summary["events"] = outcome.events;
    summary["wall_s"] = outcome.wall;
    summary["peak_rss_mib"] = outcome.peakRssKib / 1024.0;
    if (job.HasJobList())
    {
        summary["jobs"] = JobsJson(job, monitor);
    }
    std::ofstream json(path);
    json << summary.dump(2) << "\n";
    return static_cast<bool>(json);
}

/**
 * Print the run's summary.
 * @param outDir the output folder.
 * @param job the job.
 * @param monitor its training monitor.
 * @param ports its port monitor.
 * @param outcome what the run measured.
 */
void
PrintSummary(const std::string& outDir,
             const LlmTrainingHelper& job,
             const TrainingMonitor& monitor,
             const FabricMonitor& ports,
             const Outcome& outcome)
{
    const double wall = outcome.wall;
    std::cout << "  ranks finished " << outcome.finished << "/" << job.GetApplications().size()
              << std::endl;
    // With a jobs list, PrintJobs gives each job's iterations instead.
    static const std::map<uint32_t, TrainingMonitor::JobIteration> none;
    const auto& iterations = job.HasJobList() ? none : monitor.GetIterations();
    for (const auto& [i, it] : iterations)
    {
        double n = it.ranks;
        std::cout << "  iteration " << i << ": " << (it.end - it.start).GetMicroSeconds()
                  << " us; per rank: compute " << it.compute.GetMicroSeconds() / n
                  << " us, communication " << it.communication.GetMicroSeconds() / n
                  << " us, exposed " << it.exposed.GetMicroSeconds() / n << " us, bubble "
                  << it.bubble.GetMicroSeconds() / n << " us" << std::endl;
    }
    if (job.HasJobList())
    {
        PrintJobs(job, monitor);
    }
    std::cout << "  " << monitor.GetCollectives() << " collectives (slowdown "
              << FlowStatistics::DistributionJson(monitor.GetCollectiveSlowdowns()) << ")"
              << std::endl
              << "  " << monitor.GetTransfers() << " transfers, " << outcome.dataPackets
              << " data packets, retransmitted " << outcome.retransmitted << ", drops "
              << ports.GetTotalDrops() << std::endl
              << "  PFC pause frames " << ports.GetTotalPauseFramesSent() << ", ECN marks "
              << ports.GetTotalEcnMarks() << ", CNPs " << outcome.cnps << ", largest queue "
              << ports.GetMaxQueueBytes() << " bytes" << std::endl
              << "  " << outcome.events << " events, " << outcome.linkFrames << " link frames in "
              << wall << " s (" << (wall > 0 ? outcome.linkFrames / wall : 0) << " link frames/s, "
              << (wall > 0 ? outcome.events / wall : 0) << " events/s), peak RSS "
              << outcome.peakRssKib / 1024 << " MiB" << std::endl
              << "  outputs: " << outDir << "/summary.json, iterations.csv, collectives.csv, "
              << "flows.csv, ports.csv" << std::endl;
}

/**
 * Write the figures' gnuplot scripts (iteration breakdown per rank, one per job with a jobs
 * list, FCT slowdown of the transfers, and with the time series the queue depths and pause
 * intervals), draw them where gnuplot is installed, and print the line that names them.
 * @param outDir the output folder.
 * @param timeSeries whether queue.csv and pauses.csv were written.
 * @param job the job(s).
 */
void
WriteFigures(const std::string& outDir, bool timeSeries, const LlmTrainingHelper& job)
{
    std::vector<FigureScript::Figure> figures{
        {FigureScript::ITERATION_BREAKDOWN, "iterations.csv", "iterations", "Iteration breakdown"},
        {FigureScript::FCT_SLOWDOWN,
         "flows.csv",
         "fct-slowdown",
         "Transfers: FCT slowdown by size",
         "column(4)",
         "column(10)"}};
    if (job.HasJobList())
    {
        // The jobs' ranks overlap: a breakdown per job, iterations-NAME.plt.
        figures.erase(figures.begin());
        for (const auto& one : job.GetJobs())
        {
            FigureScript::Figure figure{FigureScript::ITERATION_BREAKDOWN,
                                        "iterations.csv",
                                        "iterations-" + one.name,
                                        "Iteration breakdown, job " + one.name};
            figure.job = one.name;
            figures.push_back(figure);
        }
    }
    if (timeSeries)
    {
        figures.push_back({FigureScript::QUEUE_DEPTH, "queue.csv", "queue", "Queue depth"});
        figures.push_back({FigureScript::PAUSE_GANTT, "pauses.csv", "pauses", "PFC pauses"});
    }
    bool drawn = false;
    std::string problem = FigureScript::WriteAndDraw(outDir, figures, drawn);
    if (!problem.empty())
    {
        FailOption("outDir", problem);
    }
    std::cout << FigureScript::Describe(outDir, figures, drawn) << std::endl;
}

/**
 * Attach the outputs to a built job: port counters, optional queue and pause time series,
 * the training monitor's CSV files, optional pcaps. Exits on a problem.
 * @param job the job.
 * @param outDir the output folder.
 * @param sampleInterval queue sampling interval (0: none).
 * @param pcap pcap prefix (empty: none).
 * @param ports the port monitor.
 * @param monitor the training monitor.
 */
void
SetUpOutputs(LlmTrainingHelper& job,
             const std::string& outDir,
             Time sampleInterval,
             const std::string& pcap,
             FabricMonitor& ports,
             TrainingMonitor& monitor)
{
    const RoceFabric& fabric = job.GetFabric();
    for (uint32_t h = 0; h < fabric.GetNHosts(); ++h)
    {
        ports.AddPort(fabric.GetHostDevice(h), "nic" + std::to_string(h));
    }
    for (uint32_t s = 0; s < fabric.GetNSwitches(); ++s)
    {
        ports.AddSwitch(fabric.GetSwitch(s), fabric.GetSwitchName(s));
    }
    ports.EnableMaxQueueTracking();
    if (sampleInterval.IsStrictlyNegative())
    {
        FailOption("sampleInterval", "must not be negative");
    }
    if (sampleInterval.IsStrictlyPositive() &&
        (!ports.EnableQueueSampling(outDir + "/queue.csv", sampleInterval) ||
         !ports.EnablePauseIntervals(outDir + "/pauses.csv")))
    {
        FailOption("outDir", "cannot write " + outDir + "/queue.csv or pauses.csv");
    }
    std::string problem = monitor.Start(job, outDir);
    if (!problem.empty())
    {
        FailOption("outDir", problem);
    }
    monitor.EnableProgress(10.0, MicroSeconds(100));
    if (!pcap.empty())
    {
        RoceLinkHelper& links = job.GetTopologyHelper().GetLinkHelper();
        links.EnablePcap(pcap, fabric.GetHostDevice(job.GetTopology()->GetNicOfGpu(0, 0)));
        for (uint32_t p = 0; p < fabric.GetSwitch(0)->GetNPorts(); ++p)
        {
            links.EnablePcap(pcap, fabric.GetSwitch(0)->GetPort(p));
        }
    }
}

/**
 * Collect what a finished run measured.
 * @param job the job.
 * @param wall wall-clock seconds of Simulator::Run.
 * @param events simulator events.
 * @param simulated simulated time.
 * @return the outcome.
 */
Outcome
Measure(const LlmTrainingHelper& job, double wall, uint64_t events, Time simulated)
{
    Outcome outcome;
    outcome.wall = wall;
    outcome.events = events;
    outcome.simulated = simulated;
    for (const auto& app : job.GetApplications())
    {
        if (app->IsFinished())
        {
            ++outcome.finished;
        }
        else if (outcome.stalled.empty())
        {
            outcome.stalled = app->DescribePending();
        }
    }
    FlowStatistics::TransportCounters transport = FlowStatistics::SumQueuePairs(job.GetEndpoints());
    outcome.dataPackets = transport.dataPackets;
    outcome.retransmitted = transport.retransmitted;
    outcome.cnps = transport.cnps;
    outcome.linkFrames = FlowStatistics::CountLinkFrames(job.GetFabric());
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    outcome.peakRssKib = usage.ru_maxrss;
    return outcome;
}

/**
 * Check --onlyJob and --compareJobs against the scenario, and apply --onlyJob. Exits on a
 * problem.
 * @param scenario the scenario.
 * @param onlyJob --onlyJob.
 * @param compareJobs --compareJobs.
 */
void
CheckJobOptions(Scenario& scenario, const std::string& onlyJob, bool compareJobs)
{
    std::string key = compareJobs ? "compareJobs" : "onlyJob";
    if (!scenario.HasJobs())
    {
        FailOption(key, "the scenario has no jobs list");
    }
    if (compareJobs && !onlyJob.empty())
    {
        FailOption(key, "not with --onlyJob");
    }
    std::string problem = compareJobs ? "" : scenario.KeepOnlyJob(onlyJob);
    if (!problem.empty())
    {
        FailOption(key, problem);
    }
}

/**
 * @param iterations a job's iterations.
 * @return their mean time, microseconds (0 if none).
 */
double
MeanIterationUs(const std::map<uint32_t, TrainingMonitor::JobIteration>& iterations)
{
    double sum = 0;
    for (const auto& [i, it] : iterations)
    {
        sum += static_cast<double>((it.end - it.start).GetPicoSeconds()) / 1e6;
    }
    return iterations.empty() ? 0 : sum / static_cast<double>(iterations.size());
}

/**
 * --compareJobs: after the run of every job together, run each job alone on its servers of the
 * same fabric (outputs in OUTDIR/alone-NAME/), print a line per job (alone, together, their
 * ratio) and write jobs-compare.csv: job,alone_us,together_us,slowdown (mean iteration times).
 * @param scenario the scenario.
 * @param together the jobs run together (their command-line settings are reused).
 * @param monitor their monitor.
 * @param iterations iterations per run.
 * @param seed the RNG run number.
 * @param outDir the output folder.
 */
void
CompareJobs(const Scenario& scenario,
            LlmTrainingHelper& together,
            const TrainingMonitor& monitor,
            uint32_t iterations,
            uint32_t seed,
            const std::string& outDir)
{
    std::ofstream csv(outDir + "/jobs-compare.csv");
    csv << "job,alone_us,together_us,slowdown\n";
    std::cout << "llm-fabric-train: each job alone on its servers, against together:" << std::endl;
    for (uint32_t j = 0; j < together.GetJobs().size(); ++j)
    {
        const std::string& name = together.GetJobs()[j].name;
        Scenario alone = scenario;
        alone.KeepOnlyJob(name);
        LlmTrainingHelper job;
        job.GetAttributeDefaults() = together.GetAttributeDefaults();
        job.SetIterations(iterations);
        RngSeedManager::SetRun(seed);
        std::string problem = job.Build(alone);
        std::string dir = outDir + "/alone-" + name;
        std::error_code error;
        std::filesystem::create_directories(dir, error);
        TrainingMonitor aloneMonitor;
        if (problem.empty() && !error)
        {
            job.GetFabric().AssignStreams(1);
            problem = aloneMonitor.Start(job, dir);
        }
        if (!problem.empty() || error)
        {
            FailOption("compareJobs", error ? "cannot create " + dir : problem);
        }
        Simulator::Run();
        aloneMonitor.Finish();
        Simulator::Destroy();
        double aloneUs = MeanIterationUs(aloneMonitor.GetIterations(0));
        double togetherUs = MeanIterationUs(monitor.GetIterations(j));
        double slowdown = aloneUs > 0 ? togetherUs / aloneUs : 0;
        csv << name << "," << aloneUs << "," << togetherUs << "," << slowdown << "\n";
        std::cout << "  job " << name << ": alone " << aloneUs << " us, together " << togetherUs
                  << " us, slowdown " << slowdown << std::endl;
    }
    if (!csv)
    {
        FailOption("outDir", "cannot write " + outDir + "/jobs-compare.csv");
    }
}

} // namespace

int
main(int argc, char* argv[])

{
    std::string scenarioPath;
    uint32_t iterations = 1;
    std::string outDir = ".";
    std::string pcap;
    uint32_t seed = 1;
    std::string onlyJob;
    bool compareJobs = false;
    Time sampleInterval = Time(0);

    // The scenario's network section is applied by the helper, as attribute defaults, when the
    // job is built; the options below and any --ns3::Type::Attribute=value given here win over
    // it (the helper's AttributeDefaults records them).
    LlmTrainingHelper job;
    AttributeDefaults& defaults = job.GetAttributeDefaults();
    std::vector<std::pair<std::string, std::string>> problems;
    std::vector<std::unique_ptr<AttributeOption>> options;
    ProgramOptions cmd("llm-fabric-train",
                       "A training job of a YAML scenario over the packet-level fabric.");
    cmd.AddValue("scenario", "YAML scenario file (required)", scenarioPath);
    cmd.AddValue("iterations", "Training iterations", iterations);
    cmd.AddValue("outDir", "Folder of the outputs", outDir);
    cmd.AddValue("pcap", "Prefix of pcap files; empty: none", pcap);
    AddAttributeOptions(cmd, defaults, options, problems);
    cmd.AddValue("seed", "RNG run number", seed);
    FaultOptions faultOptions("llm-fabric-train");
    faultOptions.AddTo(cmd);
    std::string stragglers;
    cmd.AddValue("straggler",
                 "Slowed ranks, RANK=FACTOR,... (compute x FACTOR from the start)",
                 stragglers);
    cmd.AddValue("compareJobs",
                 "With a scenario of several jobs: then run each job alone on its servers of the "
                 "same fabric and print (and write to jobs-compare.csv) its iteration time alone "
                 "and together",
                 compareJobs);
    cmd.AddValue("onlyJob",
                 "With a scenario of several jobs: run only the job of this name, on its servers "
                 "of the same fabric (its time alone)",
                 onlyJob);
    cmd.AddValue("sampleInterval",
                 "If positive: write queue.csv (every port's queues at this interval) and "
                 "pauses.csv (every PFC pause interval) as the run goes",
                 sampleInterval);
    cmd.ParseOrExit(argc, argv);
    defaults.RecordCommandLine(argc, argv);
    defaults.Reapply(); // a --dcqcnProfile parsed after --ns3::Dcqcn::X=... must not undo it
    if (!problems.empty())
    {
        FailOption(problems.front().first, problems.front().second);
    }

    if (scenarioPath.empty())
    {
        FailOption("scenario", "a scenario file is required");
    }
    if (iterations == 0)
    {
        FailOption("iterations", "must be at least 1");
    }
    Scenario scenario;
    std::string problem = Scenario::Load(scenarioPath, scenario);
    if (!problem.empty())
    {
        Fail(problem);
    }
    if (!onlyJob.empty() || compareJobs)
    {
        CheckJobOptions(scenario, onlyJob, compareJobs);
    }
    std::error_code error;
    std::filesystem::create_directories(outDir, error);
    if (error)
    {
        FailOption("outDir", "cannot create " + outDir + ": " + error.message());
    }
    if (std::string prefixProblem = ProgramOptions::CheckPrefix(pcap); !prefixProblem.empty())
    {
        FailOption("pcap", prefixProblem); // a prefix inside --outDir works: it exists now
    }
    RngSeedManager::SetRun(seed);
    const uint32_t gpus = scenario.GetGpus();

    job.SetIterations(iterations);
    problem = job.Build(scenario);
    if (!problem.empty())
    {
        // A problem of the command line's buffer is not the scenario file's.
        bool commandLine = problem.rfind(LlmTrainingHelper::COMMAND_LINE_BUFFER, 0) == 0;
        Fail((commandLine ? "llm-fabric-train: " : scenarioPath + ": ") + problem);
    }
    const RoceFabric& fabric = job.GetFabric();
    int64_t stream = 1 + fabric.AssignStreams(1);
    ScenarioFaults faults = scenario.GetFaults();
    problem = ParseStragglers(stragglers, gpus, faults.stragglers);
    if (!problem.empty())
    {
        FailOption("straggler", problem);
    }
    for (const StragglerSpec& s : faults.stragglers)
    {
        Ptr<LlmTrainingApplication> app = job.GetApplications().at(s.rank);
        app->SetAttribute("ComputeSlowdown", DoubleValue(s.factor));
        app->SetAttribute("SlowdownStart", TimeValue(s.from));
        app->SetAttribute("SlowdownFirstIteration", UintegerValue(s.firstIteration));
        app->SetAttribute("SlowdownIterations", UintegerValue(s.iterations));
    }
    Ptr<FaultInjector> injector = faultOptions.Install(fabric, &faults, scenarioPath, stream);
    FabricMonitor ports;
    TrainingMonitor monitor;
    SetUpOutputs(job, outDir, sampleInterval, pcap, ports, monitor);

    uint32_t servers = job.GetNvlinkDomains().size();
    std::cout << "llm-fabric-train: " << scenarioPath << ": " << gpus << " GPUs on " << servers
              << " servers; " << job.GetTopology()->Describe() << "; " << iterations
              << " iteration(s), cc "
              << TypeIdAlias::GetShortName(TypeId::LookupByName(
                     AttributeDefaults::GetCurrent("ns3::RdmaEndpoint::CongestionControl")))
              << ", PFC "
              << (AttributeDefaults::GetCurrent("ns3::SwitchMmu::LosslessPriorities") != "0"
                      ? "on"
                      : "off")
              << ", MTU " << AttributeDefaults::GetCurrent("ns3::RdmaQueuePair::Mtu") << std::endl;

    if (!injector->GetFaults().empty() || !faults.stragglers.empty())
    {
        std::cout << "  faults: " << injector->GetFaults().size() << " link/NIC, "
                  << faults.stragglers.size() << " straggler(s)" << std::endl;
    }

    auto wallStart = std::chrono::steady_clock::now();
    Simulator::Run();
    double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();
    monitor.Finish();
    ports.Finish();
    uint64_t events = Simulator::GetEventCount();
    Time simulated = Simulator::Now();

    Outcome outcome = Measure(job, wall, events, simulated);
    ports.WriteCounters(outDir + "/ports.csv");
    if (!WriteSummary(outDir + "/summary.json", scenarioPath, job, monitor, ports, outcome))
    {
        FailOption("outDir", "cannot write " + outDir + "/summary.json");
    }
    PrintSummary(outDir, job, monitor, ports, outcome);
    if (!injector->GetFaults().empty())
    {
        std::cout << "  faults: frames lost to links down " << injector->GetLinkDownLosses()
                  << ", to bit errors " << injector->GetBitErrorLosses() << ", route updates "
                  << injector->GetRouteUpdates() << std::endl;
    }
    WriteFigures(outDir, sampleInterval.IsStrictlyPositive(), job);
    const uint32_t finished = outcome.finished;
    const std::string& stalled = outcome.stalled;
    if (finished != gpus)
    {
        std::cerr << "llm-fabric-train: only " << finished << " of " << gpus << " ranks finished; "
                  << stalled << std::endl;
    }
    Simulator::Destroy();
    if (compareJobs)
    {
        CompareJobs(scenario, job, monitor, iterations, seed, outDir);
    }
    return finished == gpus ? 0 : 1;
}
