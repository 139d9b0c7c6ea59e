/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/abort.h"
#include "ns3/collective-runtime.h"
#include "ns3/figure-script.h"
#include "ns3/job-placement.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/llm-training-helper.h"
#include "ns3/scenario.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/training-monitor.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Several jobs on one fabric: a scenario's jobs list (its errors, one line each, and the servers
 * each placement policy gives), and two jobs simulated together against each alone on the same
 * fabric: on disjoint leaves of a non-blocking fabric their iterations take the same time; on a
 * shared oversubscribed uplink both slow down, by an amount bounded by the uplink's rate.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * A job of the small dense model (2 layers, hidden 256, vocabulary 1000, 128-token sequences) in
 * data parallelism over 2 GPUs, with a GPU so fast that its compute takes nanoseconds: the
 * iteration is its gradient all-reduce.
 * @param name the job's name.
 * @param extra more keys of the entry (each line indented by 4).
 * @return the entry, indented for a jobs list.
 */
std::string
DenseJob(const std::string& name, const std::string& extra = "")
{
    return "  - name: " + name + "\n" + extra + R"(    model:
      layers: 2
      hidden_size: 256
      heads: 4
      ffn_hidden_size: 1024
      vocabulary_size: 1000
      sequence_length: 128
    training:
      global_batch_sequences: 2
      micro_batch: 1
    layout:
      dp: 2
    cluster:
      gpus: 2
      gpu: h100
      peak_flops: 1e21
)";
}

/**
 * @param text a text.
 * @param what a part of it (it must occur).
 * @param by its replacement.
 * @return the text with the first @p what replaced.
 */
std::string
Edited(std::string text, const std::string& what, const std::string& by)
{
    std::string::size_type at = text.find(what);
    NS_ABORT_MSG_IF(at == std::string::npos, "no '" << what << "' in the text");
    return text.replace(at, what.size(), by);
}

/**
 * Load a scenario from text.
 * @param yaml the text.
 * @param scenario receives it.
 * @return the problem, if any.
 */
std::string
Load(const std::string& yaml, Scenario& scenario)
{
    return Scenario::LoadFromString(yaml, "two.yaml", scenario);
}

/// What a run of a scenario's jobs gave, by job.
struct RunResult
{
    std::vector<Time> iteration;   //!< iteration 0's time, by job
    std::vector<Time> end;         //!< iteration 0's end, by job
    std::vector<uint64_t> upWire;  //!< wire bytes of RDMA transfers from a rank of server 0's
                                   //!< leaf to another leaf, by job
    Time firstUp{Time::Max()};     //!< earliest start of such a transfer
    std::vector<std::string> rows; //!< iterations.csv
};

/// Counts the wire bytes a job sends up from its rank 0's leaf (the ranks on the first leaf).
struct UplinkCount
{
    /**
     * @param record a transfer.
     */
    void Transfer(const TransferRecord& record)
    {
        if (!record.nvlink && record.srcRank == 0)
        {
            *wire += runtime->WireBytes(record.bytes);
            *first = std::min(*first, record.start);
        }
    }

    Ptr<CollectiveRuntime> runtime; //!< the job's runtime
    uint64_t* wire{nullptr};        //!< where the bytes go
    Time* first{nullptr};           //!< earliest start
};

/**
 * Build and run one iteration of a scenario's jobs, with a TrainingMonitor writing to a folder.
 * @param scenario the scenario.
 * @param dir the output folder (exists).
 * @param[out] result what the run gave.
 * @return "" or the problem.
 */
std::string
RunJobs(const Scenario& scenario, const std::string& dir, RunResult& result)
{
    LlmTrainingHelper helper;
    std::string problem = helper.Build(scenario);
    if (!problem.empty())
    {
        return problem;
    }
    helper.GetFabric().AssignStreams(1);
    TrainingMonitor monitor;
    problem = monitor.Start(helper, dir);
    if (!problem.empty())
    {
        return problem;
    }
    const auto& jobs = helper.GetJobs();
    result.upWire.assign(jobs.size(), 0);
    std::vector<UplinkCount> counts(jobs.size());
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        counts[j].runtime = jobs[j].runtime;
        counts[j].wire = &result.upWire[j];
        counts[j].first = &result.firstUp;
        jobs[j].runtime->TraceConnectWithoutContext(
            "TransferDone",
            MakeCallback(&UplinkCount::Transfer, &counts[j]));
    }
    Simulator::Stop(Seconds(1)); // a guard: the monitor stops the run when every rank is done
    Simulator::Run();
    monitor.Finish();
    for (std::size_t j = 0; j < jobs.size(); ++j)
    {
        const auto& iterations = monitor.GetIterations(static_cast<uint32_t>(j));
        if (iterations.size() != 1 || iterations.begin()->second.ranks != jobs[j].apps.size())
        {
            Simulator::Destroy();
            return "job " + jobs[j].name + " did not finish its iteration";
        }
        result.iteration.push_back(iterations.begin()->second.end -
                                   iterations.begin()->second.start);
        result.end.push_back(iterations.begin()->second.end);
    }
    Simulator::Destroy();
    std::ifstream csv(dir + "/iterations.csv");
    for (std::string line; std::getline(csv, line);)
    {
        result.rows.push_back(line);
    }
    return "";
}

/**
 * Run one job of a scenario alone on its servers of the same fabric (KeepOnlyJob), its outputs
 * in a folder of its name.
 * @param jobs the scenario of several jobs.
 * @param name the job.
 * @param dir the folder holding the job's folder.
 * @param result receives what the run gave.
 * @return "" or the problem.
 */
std::string
RunAlone(const Scenario& jobs, const std::string& name, const std::string& dir, RunResult& result)
{
    Scenario alone = jobs;
    std::string problem = alone.KeepOnlyJob(name);
    return problem.empty() ? RunJobs(alone, dir + "/" + name, result) : problem;
}

} // namespace

/**
 * @ingroup llm-fabric-tests
 * A jobs list's errors: each is one line "FILE: jobs[i].KEY: reason" (or the top-level key).
 */
class MultiJobErrorsTestCase : public TestCase
{
  public:
    MultiJobErrorsTestCase()
        : TestCase("jobs list: every error is one line naming the job's key")
    {
    }

  private:
    void DoRun() override
    {
        const std::string head = "cluster:\n  gpus_per_server: 1\njobs:\n";
        const std::string two = head + DenseJob("a") + DenseJob("b");
        Scenario scenario;
        NS_TEST_ASSERT_MSG_EQ(Load(two, scenario), "", "the base scenario loads");
        // 2 jobs of 2 GPUs on servers of 1: 4 GPUs, 4 servers; b alone keeps the cluster.
        NS_TEST_EXPECT_MSG_EQ(scenario.GetGpus(), 4, "the jobs' GPUs");
        NS_TEST_EXPECT_MSG_EQ(scenario.GetClusterServers(), 4, "the cluster's servers");
        Scenario onlyB = scenario;
        NS_TEST_EXPECT_MSG_EQ(onlyB.KeepOnlyJob("b"), "", "b");
        NS_TEST_EXPECT_MSG_EQ(onlyB.GetJobs().size(), 1, "one job");
        NS_TEST_EXPECT_MSG_EQ(onlyB.GetGpus(), 2, "b's GPUs");
        NS_TEST_EXPECT_MSG_EQ(onlyB.GetClusterServers(), 4, "the same cluster");
        NS_TEST_EXPECT_MSG_EQ((onlyB.GetJobs()[0].GetServers() == std::vector<uint32_t>{2, 3}),
                              true,
                              "b's servers");
        // A faults section is shared by the jobs: a link fault stays with either job alone; a
        // straggler's rank counts a's ranks (0, 1) then b's (2, 3), so rank 3 is b's rank 1.
        Scenario faulty;
        NS_TEST_ASSERT_MSG_EQ(Load(two + "faults:\n  - kind: link_down\n    link: leaf0:spine0\n"
                                         "    at: 1ms\n  - kind: straggler\n    rank: 3\n"
                                         "    factor: 2\n",
                                   faulty),
                              "",
                              "a jobs scenario with faults loads");
        NS_TEST_EXPECT_MSG_EQ(faulty.GetFaults().faults.size(), 1, "one link fault");
        NS_TEST_ASSERT_MSG_EQ(faulty.GetFaults().stragglers.size(), 1, "one straggler");
        NS_TEST_EXPECT_MSG_EQ(faulty.GetFaults().stragglers[0].rank, 3, "rank over all jobs");
        Scenario faultyB = faulty;
        NS_TEST_EXPECT_MSG_EQ(faultyB.KeepOnlyJob("b"), "", "b");
        NS_TEST_EXPECT_MSG_EQ(faultyB.GetFaults().faults.size(), 1, "the link fault stays");
        NS_TEST_ASSERT_MSG_EQ(faultyB.GetFaults().stragglers.size(), 1, "b's straggler stays");
        NS_TEST_EXPECT_MSG_EQ(faultyB.GetFaults().stragglers[0].rank, 1, "renumbered in b");
        Scenario faultyA = faulty;
        NS_TEST_EXPECT_MSG_EQ(faultyA.KeepOnlyJob("a"), "", "a");
        NS_TEST_EXPECT_MSG_EQ(faultyA.GetFaults().stragglers.size(), 0, "not a's straggler");
        Scenario tooFar;
        NS_TEST_EXPECT_MSG_EQ(
            Load(two + "faults:\n  - kind: straggler\n    rank: 4\n    factor: 2\n", tooFar)
                .find("two.yaml: faults[0].rank: "),
            0,
            "a rank beyond all jobs' is refused on its key");
        // (scenario text, the error it must give)
        const std::vector<std::pair<std::string, std::string>> cases = {
            {head + DenseJob("a", "    colour: red\n"),
             "two.yaml: jobs[0].colour: unknown key (known: name, start_us, servers, model, "
             "training, layout, collectives, cluster)"},
            {"model:\n  preset: gpt2-small\n" + two,
             "two.yaml: model: a section of each job: give it in every entry of jobs"},
            {"cluster:\n  gpus_per_server: 1\n  servers: 3\njobs:\n" + DenseJob("a") +
                 DenseJob("b"),
             // a takes 2 of the 3 servers, b needs 2 more
             "two.yaml: jobs[1]: needs 2 servers, 1 of the cluster's 3 are left"},
            {head + DenseJob("a", "    servers: [0, 1]\n") + DenseJob("b", "    servers: [1, 2]\n"),
             "two.yaml: jobs[1].servers: server 1 is also in job 0's list"},
            {head + DenseJob("a", "    servers: [0, 0]\n"),
             "two.yaml: jobs[0].servers: server 0 is listed twice"},
            {head + DenseJob("a", "    servers: [0, 1, 2]\n"),
             "two.yaml: jobs[0].servers: 3 servers listed, the job needs 2"},
            {head + DenseJob("a", "    servers: [0, 7]\n"),
             // the cluster is the sum of the jobs' servers: 2
             "two.yaml: jobs[0].servers: server 7 is not in the cluster's 2"},
            {"cluster:\n  gpus_per_server: 4\njobs:\n" + DenseJob("a"),
             "two.yaml: jobs[0].cluster.gpus: 2 GPUs do not fill servers of 4 GPUs"},
            {head + DenseJob("a") + DenseJob("a"),
             "two.yaml: jobs[1].name: 'a' is the name of an earlier job"},
            {head + DenseJob("a", "    start_us: -5\n"),
             "two.yaml: jobs[0].start_us: expected a number of microseconds from 0 to 1e12, got "
             "'-5'"},
            {head + DenseJob("a b"),
             "two.yaml: jobs[0].name: expected a name of letters, digits, '_', '-' and '.', got "
             "'a b'"},
            {"placement: tidy\n" + two,
             "two.yaml: placement: expected one of packed, spread, random, got 'tidy'"},
            {"cluster:\n  gpus_per_server: 1\n  gpus: 4\njobs:\n" + DenseJob("a"),
             "two.yaml: cluster.gpus: unknown key (known: gpus_per_server, servers); the GPUs of "
             "a job are given in its entry (jobs[i].cluster)"},
            {head + Edited(DenseJob("a"),
                           "      gpus: 2\n",
                           "      gpus: 2\n      gpus_per_server: 1\n"),
             "two.yaml: jobs[0].cluster.gpus_per_server: shared by the jobs: give it in the "
             "top-level cluster section"},
            {head + DenseJob("a", "    model: {}\n"), "two.yaml: jobs[0].model: duplicate key"},
            {"jobs: []\n", "two.yaml: jobs: the list is empty"},
            {"jobs: 3\n", "two.yaml: jobs: expected a list of jobs, got '3'"},
        };
        for (const auto& [yaml, expected] : cases)
        {
            Scenario out;
            NS_TEST_EXPECT_MSG_EQ(Load(yaml, out), expected, yaml);
        }
        // A job's own keys are checked as in a scenario of one job, under its path.
        std::string bad = two;
        bad.replace(bad.find("dp: 2"), 5, "dp: 3");
        Scenario out;
        std::string error = Load(bad, out);
        NS_TEST_EXPECT_MSG_EQ(error.rfind("two.yaml: jobs[0].layout: ", 0),
                              0,
                              "a job's layout check: " << error);
    }
};

/**
 * @ingroup llm-fabric-tests
 * Placement: packed, spread, random and explicit lists give the servers derived by hand.
 */
class MultiJobPlacementTestCase : public TestCase
{
  public:
    MultiJobPlacementTestCase()
        : TestCase("Placement: packed, spread, random and explicit lists")
    {
    }

  private:
    /**
     * @param placement the placement lines.
     * @param b the second job's extra keys.
     * @return the jobs' servers, or an empty list on a problem.
     */
    std::vector<std::vector<uint32_t>> Place(const std::string& placement,
                                             const std::string& b = "")
    {
        // 6 servers of 2 GPUs, a NIC each, 2 servers per leaf: leaves {0, 1}, {2, 3}, {4, 5}.
        // Job a needs 4 servers (8 GPUs), job b 2 (4 GPUs).
        std::string yaml = placement + "cluster:\n  gpus_per_server: 2\n  servers: 6\n" +
                           "topology:\n  kind: leaf-spine\n  nics_per_server: 2\n" +
                           "  servers_per_leaf: 2\njobs:\n" + DenseJob("a") + DenseJob("b", b);
        yaml.replace(yaml.find("gpus: 2"), 7, "gpus: 8");
        yaml.replace(yaml.find("dp: 2"), 5, "dp: 8");
        yaml.replace(yaml.find("global_batch_sequences: 2"), 25, "global_batch_sequences: 8");
        yaml.replace(yaml.rfind("gpus: 2"), 7, "gpus: 4");
        yaml.replace(yaml.rfind("dp: 2"), 5, "dp: 4");
        yaml.replace(yaml.rfind("global_batch_sequences: 2"), 25, "global_batch_sequences: 4");
        Scenario scenario;
        std::string problem = Load(yaml, scenario);
        NS_TEST_EXPECT_MSG_EQ(problem, "", yaml);
        std::vector<std::vector<uint32_t>> servers;
        for (const Scenario& job : scenario.GetJobs())
        {
            servers.push_back(job.GetServers());
        }
        return servers;
    }

    void DoRun() override
    {
        using Lists = std::vector<std::vector<uint32_t>>;
        // packed: a takes the first 4 servers, b the next 2.
        NS_TEST_EXPECT_MSG_EQ((Place("") == Lists{{0, 1, 2, 3}, {4, 5}}), true, "packed");
        // spread: a visits leaves 0, 1, 2, 0: servers 0, 2, 4, 1; b starts again at leaf 0,
        // which is full, then leaves 1 and 2: servers 3, 5.
        NS_TEST_EXPECT_MSG_EQ((Place("placement: spread\n") == Lists{{0, 2, 4, 1}, {3, 5}}),
                              true,
                              "spread");
        // b's explicit list first; packed a takes the lowest 4 of the rest.
        NS_TEST_EXPECT_MSG_EQ((Place("", "    servers: [5, 0]\n") == Lists{{1, 2, 3, 4}, {5, 0}}),
                              true,
                              "explicit + packed");
        // b on 0 and 5: spread a takes leaf 0: 1, leaf 1: 2, leaf 2: 4, leaf 0 (full), leaf 1: 3.
        NS_TEST_EXPECT_MSG_EQ(
            (Place("placement: spread\n", "    servers: [0, 5]\n") == Lists{{1, 2, 4, 3}, {0, 5}}),
            true,
            "explicit + spread");
        // random: the documented shuffle (Fisher-Yates on std::mt19937(7)), then runs of 4 and 2.
        std::vector<uint32_t> order{0, 1, 2, 3, 4, 5};
        std::mt19937 rng(7);
        for (std::size_t i = order.size(); i > 1; --i)
        {
            std::swap(order[i - 1], order[rng() % i]);
        }
        Lists expected{{order[0], order[1], order[2], order[3]}, {order[4], order[5]}};
        Lists random = Place("placement: random\nplacement_seed: 7\n");
        NS_TEST_EXPECT_MSG_EQ((random == expected), true, "random, seed 7");
        // The seed matters: of the 6! orders, seeds 7 and 8 giving the same is unlikely, and
        // these two do not (a shuffle that ignored its seed would).
        Lists other = Place("placement: random\nplacement_seed: 8\n");
        NS_TEST_EXPECT_MSG_EQ((other != random), true, "seeds 7 and 8 differ");
        // JobPlacement directly: a job that needs more than is left.
        std::vector<std::vector<uint32_t>> placed;
        uint32_t failed = 9;
        std::string problem = JobPlacement::Place(JobPlacement::PACKED,
                                                  1,
                                                  {0, 0, 1, 1},
                                                  {3, 2},
                                                  {{}, {}},
                                                  placed,
                                                  failed);
        NS_TEST_EXPECT_MSG_EQ(problem, "needs 2 servers, 1 of the cluster's 4 are left", "fit");
        NS_TEST_EXPECT_MSG_EQ(failed, 1, "the job that does not fit");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Two jobs on disjoint leaves of a non-blocking leaf-spine take the same time together as each
 * alone, and the CSV rows end with the job's name.
 */
class MultiJobDisjointTestCase : public TestCase
{
  public:
    MultiJobDisjointTestCase()
        : TestCase("Disjoint leaves, non-blocking: together as fast as alone")
    {
    }

  private:
    void DoRun() override
    {
        // 4 servers of one GPU and NIC, one server per leaf, spines 0: the fewest that make a
        // leaf non-blocking, 1 x 400 / 400 = 1. Packed: a on servers 0, 1 (leaves 0, 1), b on
        // 2, 3 (leaves 2, 3). a's all-reduce goes leaf 0 <-> spine <-> leaf 1, b's leaf 2 <->
        // spine <-> leaf 3: the two jobs share no link and no egress queue, only the spine
        // switch and its shared buffer. A flow alone on a path of equal rates queues at most a
        // frame or two at the spine, far below any ECN or PFC threshold and the buffer, so the
        // other job changes nothing a packet meets: the times must be equal (to the
        // microsecond; we find them equal to the picosecond).
        const std::string yaml = "cluster:\n  gpus_per_server: 1\ntopology:\n"
                                 "  kind: leaf-spine\n  servers_per_leaf: 1\njobs:\n" +
                                 DenseJob("a") + DenseJob("b", "    start_us: 3\n");
        Scenario both;
        NS_TEST_ASSERT_MSG_EQ(Load(yaml, both), "", "loads");
        RunResult together;
        std::string dir = CreateTempDirFilename("disjoint");
        std::filesystem::create_directories(dir + "/a");
        std::filesystem::create_directories(dir + "/b");
        NS_TEST_ASSERT_MSG_EQ(RunJobs(both, dir, together), "", "together");
        for (const std::string name : {"a", "b"})
        {
            RunResult result;
            NS_TEST_ASSERT_MSG_EQ(RunAlone(both, name, dir, result), "", name);
            uint32_t j = name == std::string("a") ? 0 : 1;
            NS_TEST_EXPECT_MSG_EQ_TOL(together.iteration[j],
                                      result.iteration[0],
                                      MicroSeconds(1),
                                      "job " << name << " together and alone");
            NS_TEST_EXPECT_MSG_EQ(together.iteration[j], result.iteration[0], "to the ps");
        }
        // b starts 3 us late, and its iteration ends 3 us after a's (the same work).
        NS_TEST_EXPECT_MSG_EQ(together.end[1] - together.end[0], MicroSeconds(3), "offset");
        // iterations.csv: a header and a row per rank and job, each ending with the job.
        NS_TEST_ASSERT_MSG_EQ(together.rows.size(), 5, "header + 4 ranks");
        NS_TEST_EXPECT_MSG_EQ(together.rows[0].substr(together.rows[0].rfind(',')),
                              ",job",
                              "header");
        uint32_t a = 0;
        uint32_t b = 0;
        for (std::size_t i = 1; i < together.rows.size(); ++i)
        {
            std::string last = together.rows[i].substr(together.rows[i].rfind(',') + 1);
            a += last == "a" ? 1 : 0;
            b += last == "b" ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(a, 2, "2 rows of a");
        NS_TEST_EXPECT_MSG_EQ(b, 2, "2 rows of b");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Two jobs whose all-reduces share an oversubscribed uplink both slow down, by an amount the
 * uplink's rate bounds.
 */
class MultiJobSharedUplinkTestCase : public TestCase
{
  public:
    MultiJobSharedUplinkTestCase()
        : TestCase("Shared 2:1 uplink: both jobs slow down, bounded by the uplink's rate")
    {
    }

  private:
    void DoRun() override
    {
        // 4 servers of one GPU and NIC, 2 per leaf, 1 spine: each leaf has 2 x 400 Gb/s down
        // and one 400 Gb/s uplink (2:1). Spread: a on servers 0, 2 (leaves 0, 1), b on 1, 3
        // (leaves 0, 1). Each job's 2-rank all-reduce sends W wire bytes from its rank 0 (leaf
        // 0) to its rank 1 (leaf 1) and as many back: alone, leaf 0's uplink carries W at
        // R = 400 Gb/s; together it carries both jobs' W, so the later job cannot end before
        // the first such transfer starts plus (W_a + W_b) / R, and each job's iteration grows.
        // Congestion control none with PFC: the uplink's queue pauses both NICs alike and the
        // link stays busy (work-conserving), so each job loses the other job's W / R. Here
        // W is counted from the job's transfers (CollectiveRuntime::WireBytes of each, headers
        // included): we see W = 3812776 bytes, W / R = 76.26 us, and 88.67 us alone.
        const std::string yaml =
            "cluster:\n  gpus_per_server: 1\ntopology:\n  kind: leaf-spine\n"
            "  servers_per_leaf: 2\n  spines: 1\nnetwork:\n  congestion_control: none\n"
            "placement: spread\njobs:\n" +
            DenseJob("a") + DenseJob("b");
        Scenario both;
        NS_TEST_ASSERT_MSG_EQ(Load(yaml, both), "", "loads");
        NS_TEST_ASSERT_MSG_EQ((both.GetJobs()[0].GetServers() == std::vector<uint32_t>{0, 2}),
                              true,
                              "a on leaves 0 and 1");
        std::string dir = CreateTempDirFilename("shared");
        std::filesystem::create_directories(dir + "/a");
        std::filesystem::create_directories(dir + "/b");
        RunResult together;
        NS_TEST_ASSERT_MSG_EQ(RunJobs(both, dir, together), "", "together");
        const double rate = 400e9;
        Time bothUp = Seconds((together.upWire[0] + together.upWire[1]) * 8.0 / rate);
        Time lastEnd = std::max(together.end[0], together.end[1]);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(lastEnd,
                                    together.firstUp + bothUp,
                                    "the uplink carried both jobs' bytes at 400 Gb/s at most");
        for (const std::string name : {"a", "b"})
        {
            RunResult result;
            NS_TEST_ASSERT_MSG_EQ(RunAlone(both, name, dir, result), "", name);
            uint32_t j = name == std::string("a") ? 0 : 1;
            uint32_t other = 1 - j;
            NS_TEST_EXPECT_MSG_EQ(result.upWire[0], together.upWire[j], "same bytes");
            Time slowdown = together.iteration[j] - result.iteration[0];
            Time otherUp = Seconds(together.upWire[other] * 8.0 / rate);
            NS_TEST_EXPECT_MSG_GT(slowdown, Time(0), "job " << name << " slows down");
            // Alone, its comm is W / R plus the path's latency; together the uplink, kept busy,
            // carries W_a + W_b, so the iteration grows by the other job's W / R: within 5 %
            // (the pauses' gaps and the fair share's imbalance; we find 0.2 % below).
            NS_TEST_EXPECT_MSG_LT_OR_EQ(slowdown,
                                        otherUp + otherUp / 20,
                                        "job " << name << ": slowdown " << slowdown.As(Time::US)
                                               << " vs other's W/R " << otherUp.As(Time::US));
            NS_TEST_EXPECT_MSG_GT_OR_EQ(slowdown,
                                        otherUp - otherUp / 20,
                                        "job " << name << ": slowdown " << slowdown.As(Time::US)
                                               << " vs other's W/R " << otherUp.As(Time::US));
        }
    }
};

/**
 * @ingroup llm-fabric-tests
 * llm-fabric-train with a jobs list: every row of its three CSV files ends with the job's name,
 * summary.json has a jobs entry per job, it prints a line per job, the iteration breakdown is a
 * figure per job (FigureScript's Figure::job), --onlyJob runs one job,
 * --compareJobs gives each job alone (as --onlyJob does) and together, and an unknown job is one
 * line and exit status 2.
 */
class MultiJobTrainProgramTestCase : public TestCase
{
  public:
    MultiJobTrainProgramTestCase()
        : TestCase("llm-fabric-train: job column, summary per job, --onlyJob, --compareJobs")
    {
    }

  private:
    /**
     * @param path a CSV file.
     * @return the last field of each line, header first.
     */
    static std::vector<std::string> LastFields(const std::string& path)
    {
        std::vector<std::string> fields;
        std::ifstream in(path);
        for (std::string line; std::getline(in, line);)
        {
            fields.push_back(line.substr(line.rfind(',') + 1));
        }
        return fields;
    }

    void DoRun() override
    {
        std::string program = FindExample("llm-fabric-train", GetName());
        if (program.empty())
        {
            return;
        }
        std::string dir = CreateTempDirFilename("train");
        std::filesystem::create_directories(dir + "/b");
        std::ofstream(dir + "/two.yaml")
            << "cluster:\n  gpus_per_server: 1\ntopology:\n  kind: leaf-spine\n"
               "  servers_per_leaf: 1\njobs:\n" +
                   DenseJob("a") + DenseJob("b");
        int status = -1;
        std::string out =
            RunCommand(program + " --scenario='" + dir + "/two.yaml' --outDir='" + dir + "' 2>&1",
                       status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        NS_TEST_EXPECT_MSG_NE(out.find("  job a: 2/2 ranks finished, 2 servers from 0"),
                              std::string::npos,
                              out);
        NS_TEST_EXPECT_MSG_NE(out.find("  job b: 2/2 ranks finished, 2 servers from 2"),
                              std::string::npos,
                              out);
        // Each file: the header's last column is job, and both jobs have rows.
        for (const char* file : {"iterations.csv", "collectives.csv", "flows.csv"})
        {
            std::vector<std::string> last = LastFields(dir + "/" + file);
            NS_TEST_ASSERT_MSG_GT(last.size(), 2, file);
            NS_TEST_EXPECT_MSG_EQ(last[0], "job", file);
            std::size_t a = std::count(last.begin() + 1, last.end(), "a");
            std::size_t b = std::count(last.begin() + 1, last.end(), "b");
            NS_TEST_EXPECT_MSG_EQ(a + b, last.size() - 1, file << ": every row is a's or b's");
            NS_TEST_EXPECT_MSG_EQ(a, b, file << ": the same jobs, as many rows");
        }
        std::ifstream summary(dir + "/summary.json");
        std::string json((std::istreambuf_iterator<char>(summary)),
                         std::istreambuf_iterator<char>());
        NS_TEST_EXPECT_MSG_NE(json.find("\"jobs\": ["), std::string::npos, json);
        NS_TEST_EXPECT_MSG_NE(json.find("\"name\": \"b\""), std::string::npos, json);
        // The iteration breakdown is a figure per job: the jobs' ranks overlap.
        NS_TEST_EXPECT_MSG_EQ(std::filesystem::exists(dir + "/iterations.plt"),
                              false,
                              "one for all");
        for (const std::string job : {"a", "b"})
        {
            std::ifstream plt(dir + "/iterations-" + job + ".plt");
            std::string script((std::istreambuf_iterator<char>(plt)),
                               std::istreambuf_iterator<char>());
            NS_TEST_EXPECT_MSG_NE(script.find("strcol(10) eq \"" + job + "\""),
                                  std::string::npos,
                                  script);
        }
        // FigureScript alone: job b's last iteration is 1 while a's is 2; b's figure shows b's.
        std::ofstream(dir + "/it.csv")
            << "rank,iteration,start_us,end_us,time_us,compute_us,communication_us,exposed_us,"
               "bubble_us,job\n0,2,0,1,1,1,0,0,0,a\n0,1,0,1,1,1,0,0,0,b\n";
        FigureScript::Figure figure{FigureScript::ITERATION_BREAKDOWN, "it.csv", "it-b", "B"};
        figure.job = "b";
        NS_TEST_ASSERT_MSG_EQ(FigureScript::Write(dir, figure), "", "written");
        std::ifstream itB(dir + "/it-b.plt");
        std::string scriptB((std::istreambuf_iterator<char>(itB)),
                            std::istreambuf_iterator<char>());
        NS_TEST_EXPECT_MSG_NE(scriptB.find("column(2) == 1 && strcol(10) eq \"b\""),
                              std::string::npos,
                              scriptB);
        NS_TEST_EXPECT_MSG_NE(scriptB.find("B, iteration 1"), std::string::npos, scriptB);
        // b alone: its rows only, on its servers.
        out = RunCommand(program + " --scenario='" + dir + "/two.yaml' --onlyJob=b --outDir='" +
                             dir + "/b' 2>&1",
                         status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        NS_TEST_EXPECT_MSG_EQ(out.find("  job a:"), std::string::npos, out);
        NS_TEST_EXPECT_MSG_NE(out.find("  job b: 2/2 ranks finished, 2 servers from 2"),
                              std::string::npos,
                              out);
        std::vector<std::string> last = LastFields(dir + "/b/iterations.csv");
        NS_TEST_EXPECT_MSG_EQ((last == std::vector<std::string>{"job", "b", "b"}), true, "b");
        // --compareJobs: each alone in the same process gives what --onlyJob gave, and on these
        // disjoint leaves of a non-blocking fabric alone equals together (slowdown 1).
        out = RunCommand(program + " --scenario='" + dir + "/two.yaml' --compareJobs=1 --outDir='" +
                             dir + "/cmp' 2>&1",
                         status);
        NS_TEST_ASSERT_MSG_EQ(status, 0, out);
        auto read = [](const std::string& path) {
            std::ifstream in(path);
            return std::string((std::istreambuf_iterator<char>(in)),
                               std::istreambuf_iterator<char>());
        };
        NS_TEST_EXPECT_MSG_EQ(read(dir + "/cmp/alone-b/iterations.csv"),
                              read(dir + "/b/iterations.csv"),
                              "alone in process = --onlyJob");
        std::ifstream compare(dir + "/cmp/jobs-compare.csv");
        std::vector<std::string> lines;
        for (std::string line; std::getline(compare, line);)
        {
            lines.push_back(line);
        }
        NS_TEST_ASSERT_MSG_EQ(lines.size(), 3, "header + 2 jobs");
        NS_TEST_EXPECT_MSG_EQ(lines[0], "job,alone_us,together_us,slowdown", "header");
        for (std::size_t i = 1; i < 3; ++i)
        {
            std::string fields[4];
            std::istringstream row(lines[i]);
            for (auto& field : fields)
            {
                std::getline(row, field, ',');
            }
            const std::string job = i == 1 ? "a" : "b";
            NS_TEST_EXPECT_MSG_EQ(fields[0], job, lines[i]);
            NS_TEST_EXPECT_MSG_EQ(fields[1], fields[2], lines[i]);
            NS_TEST_EXPECT_MSG_EQ(fields[3], "1", lines[i]);
        }
        out = RunCommand(program + " --scenario='" + dir + "/two.yaml' --onlyJob=c 2>&1", status);
        NS_TEST_EXPECT_MSG_EQ(status, 2, out);
        NS_TEST_EXPECT_MSG_EQ(out, "llm-fabric-train: --onlyJob: no job 'c' (jobs: a, b)\n", out);
    }
};

/**
 * @ingroup llm-fabric-tests
 * The multi-job suite.
 */
class MultiJobTestSuite : public TestSuite
{
  public:
    MultiJobTestSuite()
        : TestSuite("llm-fabric-multi-job", Type::UNIT)
    {
        AddTestCase(new MultiJobErrorsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new MultiJobPlacementTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new MultiJobDisjointTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new MultiJobSharedUplinkTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new MultiJobTrainProgramTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static MultiJobTestSuite g_multiJobTestSuite;

} // namespace tests
} // namespace llmfabric
