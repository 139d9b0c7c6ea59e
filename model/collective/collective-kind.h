/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_KIND_H
#define COLLECTIVE_KIND_H

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The collective operations of distributed training, and the message size S of each (the
 * @c bytes of CollectiveStrategy::Plan):
 * - ALL_REDUCE: the buffer each rank holds, input and output (e.g. the gradients);
 * - ALL_GATHER: the gathered output of each rank; rank i contributes chunk i of it;
 * - REDUCE_SCATTER: the input buffer of each rank; rank i ends with (reduced) chunk i of it;
 * - ALL_TO_ALL: the send buffer of each rank; chunk j of it goes to rank j (chunk i of rank i
 *   stays local), so rank i receives chunk i of every other rank's buffer;
 * - SEND_RECV: the buffer rank 0 sends to rank 1 (the group must have n = 2);
 * - BROADCAST: the buffer rank 0 (the root) sends.
 *
 * Buffers are cut into chunks by CollectiveChunks::ChunkBytes.
 */
enum class CollectiveKind
{
    ALL_REDUCE,     ///< Every rank ends with the element-wise reduction of all ranks' buffers.
    ALL_GATHER,     ///< Every rank ends with the concatenation of all ranks' chunks.
    REDUCE_SCATTER, ///< Rank i ends with chunk i of the reduction of all ranks' buffers.
    ALL_TO_ALL,     ///< Rank i sends chunk j of its buffer to rank j (MoE token dispatch).
    SEND_RECV,      ///< Rank 0 sends a buffer to rank 1 (pipeline-parallel activations).
    BROADCAST       ///< Rank 0 (the root) sends its buffer to every other rank.
};

/// The number of CollectiveKind values.
constexpr uint32_t COLLECTIVE_KINDS = 6;

/**
 * @ingroup llm-fabric
 * @param kind a collective.
 * @return its name: "all-reduce", "all-gather", "reduce-scatter", "all-to-all", "send-recv" or
 * "broadcast".
 */
std::string GetCollectiveKindName(CollectiveKind kind);

/**
 * @ingroup llm-fabric
 * @param name a name as GetCollectiveKindName returns.
 * @param[out] kind the collective of that name (unchanged on error).
 * @return an empty string, or "unknown collective 'X' (known: ...)".
 */
std::string ParseCollectiveKind(const std::string& name, CollectiveKind& kind);

} // namespace ns3

#endif /* COLLECTIVE_KIND_H */
