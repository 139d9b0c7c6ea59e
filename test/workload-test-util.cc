/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "workload-test-util.h"

#include "ns3/abort.h"
#include "ns3/object.h"
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
MakeLayout(uint32_t tp, uint32_t cp, uint32_t pp, uint32_t dp, uint32_t ep, uint32_t gpusPerServer)
{
    Ptr<ParallelLayout> layout = CreateObject<ParallelLayout>();
    layout->SetAttribute("Tp", UintegerValue(tp));
    layout->SetAttribute("Cp", UintegerValue(cp));
    layout->SetAttribute("Pp", UintegerValue(pp));
    layout->SetAttribute("Dp", UintegerValue(dp));
    layout->SetAttribute("Ep", UintegerValue(ep));
    layout->SetAttribute("GpusPerServer", UintegerValue(gpusPerServer));
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

} // namespace tests
} // namespace llmfabric
