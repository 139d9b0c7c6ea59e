/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-test-util.h"

#include "ns3/abort.h"
#include "ns3/object.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

namespace llmfabric
{
namespace tests
{

using namespace ns3;

Ptr<TransformerSpec>
MakeModel(const std::string& preset)
{
    Ptr<TransformerSpec> spec = CreateObject<TransformerSpec>();
    std::string error = spec->ApplyPreset(preset);
    NS_ABORT_MSG_IF(!error.empty(), error);
    return spec;
}

Ptr<ParallelLayout>
MakeLayout(uint32_t tp,
           uint32_t cp,
           uint32_t pp,
           uint32_t dp,
           uint32_t ep,
           uint32_t gpusPerServer,
           const std::string& order)
{
    Ptr<ParallelLayout> layout = CreateObject<ParallelLayout>();
    layout->SetAttribute("Tp", UintegerValue(tp));
    layout->SetAttribute("Cp", UintegerValue(cp));
    layout->SetAttribute("Pp", UintegerValue(pp));
    layout->SetAttribute("Dp", UintegerValue(dp));
    layout->SetAttribute("Ep", UintegerValue(ep));
    layout->SetAttribute("GpusPerServer", UintegerValue(gpusPerServer));
    layout->SetAttribute("RankOrder", StringValue(order));
    return layout;
}

Ptr<TrainingConfig>
MakeConfig(uint32_t globalBatch, uint32_t microBatch, uint32_t sequenceLength)
{
    Ptr<TrainingConfig> config = CreateObject<TrainingConfig>();
    config->SetAttribute("GlobalBatchSequences", UintegerValue(globalBatch));
    config->SetAttribute("MicroBatchSize", UintegerValue(microBatch));
    config->SetAttribute("SequenceLength", UintegerValue(sequenceLength));
    return config;
}

std::vector<uint32_t>
Ranks(uint32_t first, uint32_t count, uint32_t step)
{
    std::vector<uint32_t> ranks;
    for (uint32_t i = 0; i < count; ++i)
    {
        ranks.push_back(first + i * step);
    }
    return ranks;
}

} // namespace tests
} // namespace llmfabric
