/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WORKLOAD_TEST_UTIL_H
#define WORKLOAD_TEST_UTIL_H

#include "ns3/parallel-layout.h"
#include "ns3/ptr.h"
#include "ns3/training-config.h"
#include "ns3/transformer-spec.h"

#include <cstdint>
#include <string>

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * @param preset a TransformerSpec preset name.
 * @return a new specification with that preset applied (aborts on an unknown name).
 */
ns3::Ptr<ns3::TransformerSpec> MakeModel(const std::string& preset);

/**
 * @ingroup llm-fabric-tests
 * @param tp tensor-parallel degree.
 * @param cp context-parallel degree.
 * @param pp pipeline-parallel degree.
 * @param dp data-parallel degree.
 * @param ep expert-parallel degree.
 * @param gpusPerServer GPUs per server.
 * @return a new layout (default rank order tp-cp-ep-dp-pp).
 */
ns3::Ptr<ns3::ParallelLayout> MakeLayout(uint32_t tp,
                                         uint32_t cp,
                                         uint32_t pp,
                                         uint32_t dp,
                                         uint32_t ep,
                                         uint32_t gpusPerServer);

/**
 * @ingroup llm-fabric-tests
 * @param globalBatch global batch, in sequences.
 * @param microBatch micro-batch size.
 * @param sequenceLength sequence length (0: the model's).
 * @return a new configuration (bf16 everywhere, no recomputation).
 */
ns3::Ptr<ns3::TrainingConfig> MakeConfig(uint32_t globalBatch,
                                         uint32_t microBatch,
                                         uint32_t sequenceLength = 0);

} // namespace tests
} // namespace llmfabric

#endif /* WORKLOAD_TEST_UTIL_H */
