/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

/**
 * @file
 * @ingroup llm-fabric
 * The seed's path, step by step: a corpus (the Divine Comedy, say) becomes tokens, tokens
 * become sequences, sequences become iterations of a training job, and every iteration becomes
 * bytes that the GPUs exchange, per parallelism strategy, and then packets on the wire.
 *
 * Inputs: --corpus (a UTF-8 text file), --vocab (a folder with GPT-2's encoder.json and
 * vocab.bpe, also called vocab.json and merges.txt), --scenario (a YAML scenario: model,
 * training, layout, cluster), --mtu (RDMA payload per packet, for the wire overhead).
 *
 * Output: one paragraph per step on stdout, each number with how it was obtained.
 *
 * Run (from the project root, with the shared data next to it):
 *   ./ns3 run "llm-fabric-dante --corpus=../shared/data/divina_commedia.txt
 *              --vocab=../shared/data/gpt2-bpe --scenario=scenarios/gpt2-small-16gpu.yaml"
 */

#include "ns3/bpe-tokenizer.h"
#include "ns3/core-module.h"
#include "ns3/corpus-statistics.h"
#include "ns3/gpu-spec.h"
#include "ns3/parallel-layout.h"
#include "ns3/program-options.h"
#include "ns3/roce-v2-packet.h"
#include "ns3/scenario.h"
#include "ns3/traffic-report.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"
#include "ns3/usage-error.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

namespace
{

/// Stop with "program: --key: reason" and exit status 2.
void
Fail(const std::string& key, const std::string& reason)
{
    UsageError::Exit("llm-fabric-dante", key, reason);
}

} // namespace

int
main(int argc, char* argv[])
{
    std::string corpus;
    std::string vocab;
    std::string scenarioPath;
    uint32_t mtu = 4096;

    ProgramOptions cmd(
        "llm-fabric-dante",
        "Tokenize a corpus with GPT-2 BPE and report its statistics and the training it implies.");
    cmd.AddRequired("corpus", "UTF-8 text file", corpus, "a text file is required");
    cmd.AddRequired("vocab",
                    "Folder with encoder.json and vocab.bpe (GPT-2 BPE)",
                    vocab,
                    "a folder with encoder.json and vocab.bpe is required");
    cmd.AddRequired("scenario",
                    "YAML scenario (model, training, layout, cluster)",
                    scenarioPath,
                    "a scenario file is required (see scenarios/)");
    cmd.AddValue("mtu", "RDMA MTU: payload bytes per packet (256-4096)", mtu);
    cmd.ParseOrExit(argc, argv);
    if (mtu < 256 || mtu > 4096)
    {
        Fail("mtu", "must be between 256 and 4096");
    }
    BpeTokenizer tokenizer;
    std::string problem = tokenizer.LoadDirectory(vocab);
    if (!problem.empty())
    {
        UsageError::Exit(problem);
    }
    Scenario scenario;
    problem = Scenario::Load(scenarioPath, scenario);
    if (!problem.empty())
    {
        UsageError::Exit(problem);
    }
    if (scenario.HasJobs())
    {
        UsageError::Exit(scenarioPath + ": jobs: llm-fabric-dante reads a scenario of one job");
    }
    CorpusStatistics stats;
    problem = CorpusStatistics::Compute(corpus, tokenizer, stats);
    if (!problem.empty())
    {
        UsageError::Exit(problem);
    }
    Ptr<TransformerSpec> model = scenario.GetModel();
    Ptr<TrainingConfig> training = scenario.GetTraining();
    Ptr<ParallelLayout> layout = scenario.GetLayout();
    uint32_t seqLen = training->GetEffectiveSequenceLength(*model);
    uint64_t batch = training->GetGlobalBatchSequences(*model);
    uint64_t sequences = stats.GetSequences(seqLen);
    uint64_t iterations = stats.GetIterationsPerEpoch(seqLen, static_cast<uint32_t>(batch));

    std::cout << std::fixed << std::setprecision(2);
    std::cout << "1. Words. " << corpus << " holds " << stats.GetBytes() << " bytes of UTF-8, "
              << stats.GetCharacters() << " characters, " << stats.GetWords()
              << " words (runs of non-blank characters) on " << stats.GetLines() << " lines."
              << std::endl
              << std::endl;
    std::cout << "2. Tokens. GPT-2's byte-level BPE (" << tokenizer.GetVocabularySize()
              << " tokens, " << tokenizer.GetMergeCount()
              << " merges) splits the text at word and punctuation boundaries and merges byte "
                 "pairs by rank: "
              << stats.GetTokens() << " tokens, "
              << static_cast<double>(stats.GetTokens()) / std::max<uint64_t>(1, stats.GetWords())
              << " per word." << std::endl
              << std::endl;
    std::cout << "3. Sequences. The model reads " << seqLen
              << " tokens at a time: " << stats.GetTokens() << " / " << seqLen
              << " rounded up = " << sequences << " sequences." << std::endl
              << std::endl;
    std::cout << "4. Iterations. A global batch of " << batch << " sequences, split as "
              << training->GetGradientAccumulationSteps(layout->GetDp(), *model)
              << " micro-batch steps over " << layout->GetDp()
              << " data-parallel replicas, makes one iteration: " << sequences << " / " << batch
              << " rounded up = " << iterations
              << " iterations per epoch (a partial batch still exchanges its gradients in full)."
              << std::endl
              << std::endl;

    const CollectiveChoices& algorithms = scenario.GetAlgorithms();
    TrafficReport report;
    problem =
        report.Build({model, training, layout, scenario.GetGpus(), scenario.GetGpu(), algorithms});
    if (!problem.empty())
    {
        UsageError::Exit(scenarioPath + ": " + problem);
    }
    TrafficTotals totals = report.GetTotals();
    std::cout << "5. Bytes. On " << scenario.GetGpus() << " GPUs (tp " << layout->GetTp() << ", pp "
              << layout->GetPp() << ", dp " << layout->GetDp() << ", cp " << layout->GetCp()
              << ", ep " << layout->GetEp()
              << "), one iteration moves, all ranks together (payload, the scenario's collective "
                 "algorithms):"
              << std::endl;
    for (size_t s = 0; s < TRAFFIC_STRATEGIES; ++s)
    {
        const TrafficBytes& b = totals.byStrategy[s];
        if (b.Sent() == 0)
        {
            continue;
        }
        std::cout << "   " << TrafficReport::GetStrategyName(static_cast<TrafficStrategy>(s))
                  << ": " << static_cast<double>(b.Sent()) / 1e9 << " GB per iteration ("
                  << static_cast<double>(b.interSent) / 1e9 << " GB across servers), "
                  << static_cast<double>(b.Sent()) * iterations / 1e9 << " GB per epoch"
                  << std::endl;
    }
    std::cout << "   all: " << static_cast<double>(totals.all.Sent()) * iterations / 1e9
              << " GB per epoch, of which "
              << static_cast<double>(totals.all.interSent) * iterations / 1e9
              << " GB cross the network." << std::endl
              << std::endl;

    // Each RDMA packet carries at most one MTU of payload and adds BTH 12, UDP 8, IPv4 20,
    // ICRC 4, Ethernet 14 and FCS 4 bytes (RoceV2Packet::GetEncapsulationOverhead() + BTH),
    // and 20 more of preamble and inter-frame gap on the wire.
    uint64_t network = totals.all.interSent * iterations;
    uint64_t packets = (network + mtu - 1) / mtu;
    uint64_t perPacket = RoceV2Packet::GetEncapsulationOverhead() + 12 + 20;
    std::cout << "6. Packets. At an RDMA MTU of " << mtu << " bytes, the network part is at least "
              << packets << " packets per epoch; each adds " << perPacket
              << " bytes of headers, ICRC, FCS, preamble and gap: "
              << static_cast<double>(network + packets * perPacket) / 1e9
              << " GB on the wire per epoch (before ACKs, retransmissions and PFC frames, which "
                 "only a packet-level run shows)."
              << std::endl;
    return 0;
}
