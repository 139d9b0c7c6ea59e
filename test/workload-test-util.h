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
#include <vector>

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
 * @param order the rank order (RankOrder).
 * @return a new layout.
 */
ns3::Ptr<ns3::ParallelLayout> MakeLayout(uint32_t tp,
                                         uint32_t cp,
                                         uint32_t pp,
                                         uint32_t dp,
                                         uint32_t ep = 1,
                                         uint32_t gpusPerServer = 8,
                                         const std::string& order = "tp-cp-ep-dp-pp");

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

/**
 * @ingroup llm-fabric-tests
 * @param first the first rank.
 * @param count the number of ranks.
 * @param step the distance between consecutive ranks.
 * @return first, first + step, ..., count ranks.
 */
std::vector<uint32_t> Ranks(uint32_t first, uint32_t count, uint32_t step);

} // namespace tests
} // namespace llmfabric

#endif /* WORKLOAD_TEST_UTIL_H */
