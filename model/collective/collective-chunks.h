/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_CHUNKS_H
#define COLLECTIVE_CHUNKS_H

#include <cstdint>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The integer chunking rule of every collective: a buffer of S bytes cut into p chunks
 * has chunk i of floor(S / p) + (i < S mod p ? 1 : 0) bytes, so the first S mod p chunks have one
 * byte more, and a range of chunks is contiguous in the buffer. Strategies cut buffers with it,
 * the plans split transfers over channels with it, and the workload shards tensors with it.
 */
class CollectiveChunks
{
  public:
    /**
     * The size of chunk @p index of a buffer of @p total bytes cut into @p parts chunks.
     * @param total the buffer size, in bytes.
     * @param parts the number of chunks, at least 1 (0 gives 0).
     * @param index the chunk, less than parts (otherwise 0).
     * @return the chunk's size, in bytes.
     */
    static uint64_t ChunkBytes(uint64_t total, uint32_t parts, uint32_t index);

    /**
     * The bytes of the contiguous chunks [first, last) of a buffer cut by ChunkBytes.
     * @param total the buffer size, in bytes.
     * @param parts the number of chunks, at least 1.
     * @param first the first chunk.
     * @param last one past the last chunk, at most parts.
     * @return the sum of ChunkBytes(total, parts, i) for first <= i < last.
     */
    static uint64_t RangeBytes(uint64_t total, uint32_t parts, uint32_t first, uint32_t last);
};

} // namespace ns3

#endif /* COLLECTIVE_CHUNKS_H */
