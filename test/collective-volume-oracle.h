/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_VOLUME_ORACLE_H
#define COLLECTIVE_VOLUME_ORACLE_H

#include "ns3/collective-kind.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The algorithms (communication schedules) of the collectives. CollectiveVolume lists which
 * kinds each applies to.
 */
enum class CollectiveAlgorithm
{
    NAIVE,              ///< Everything through rank 0.
    RING,               ///< Ring (chain for broadcast), Patarasuk and Yuan 2009.
    DOUBLE_BINARY_TREE, ///< Two complementary binary trees, Sanders et al. 2009 (NCCL).
    RECURSIVE_DOUBLING, ///< Pairwise exchanges at distances 1, 2, 4, ... (binomial broadcast).
    HALVING_DOUBLING,   ///< Rabenseifner 2004: recursive halving then recursive doubling.
    DIRECT,             ///< Every rank sends to every destination at once, in one step.
    STAGGERED,          ///< As DIRECT, but at step k rank r sends only to rank r + k + 1.
    HIERARCHICAL        ///< Reduce-scatter in the server, all-reduce per rail, all-gather.
};

/**
 * @ingroup llm-fabric
 * One point-to-point transfer of a collective's schedule, seen from one rank.
 */
struct CollectiveTransfer
{
    uint32_t peer;  //!< The other rank (destination of a send, source of a receive).
    uint64_t bytes; //!< Payload bytes (never 0: empty transfers are not listed).
    uint32_t step;  //!< The step (synchronous round, from 0) in which it takes place.
};

/**
 * @ingroup llm-fabric
 * The traffic of one rank in one collective, filled by CollectiveVolume::Compute.
 *
 * Each transfer is classified as intra-server when both ranks are on the same server, rank / L
 * being the server of a rank for the localSize L given to Compute, else as inter-server. With
 * L = 1 (the default) every transfer is inter-server.
 */
struct RankVolume
{
    uint32_t steps{0};                        //!< Steps of the whole collective's schedule.
    uint64_t bytesSent{0};                    //!< Payload bytes this rank sends.
    uint64_t bytesReceived{0};                //!< Payload bytes this rank receives.
    uint64_t intraBytesSent{0};               //!< Bytes sent to ranks of the same server.
    uint64_t interBytesSent{0};               //!< Bytes sent to ranks of other servers.
    uint64_t intraBytesReceived{0};           //!< Bytes received from the same server.
    uint64_t interBytesReceived{0};           //!< Bytes received from other servers.
    std::vector<CollectiveTransfer> sends;    //!< What this rank sends, by step.
    std::vector<CollectiveTransfer> receives; //!< What this rank receives, by step.
};

/**
 * @ingroup llm-fabric-tests
 * The test oracle: an independent, analytical derivation of every collective schedule's traffic,
 * per rank, written apart from the strategies in model/collective/ (it was the model's analytic
 * recorder before the report derived its bytes from the strategies' own schedules). The
 * strategy tests compare each plan with it, and the traffic report's tests compare the report.
 *
 * The analytical traffic of one collective operation: for one rank of a group of n ranks, the
 * payload bytes it sends and receives, the number of steps and the list of its transfers. The
 * simulated collectives must produce exactly these transfers; in particular they split buffers
 * with ChunkBytes.
 *
 * <b>Message size S</b> (the @c bytes argument of Compute):
 * - ALL_REDUCE: the buffer each rank holds, input and output (e.g. the gradients);
 * - ALL_GATHER: the gathered output of each rank; rank i contributes chunk i of it;
 * - REDUCE_SCATTER: the input buffer of each rank; rank i ends with (reduced) chunk i of it;
 * - ALL_TO_ALL: the send buffer of each rank; chunk j of it goes to rank j (chunk i of rank i
 *   stays local), so rank i receives chunk i of every other rank's buffer;
 * - SEND_RECV: the buffer rank 0 sends to rank 1 (the group must have n = 2);
 * - BROADCAST: the buffer rank 0 (the root) sends.
 *
 * <b>Integer chunking rule</b>: a buffer of S bytes cut into p chunks has chunk i of
 * floor(S / p) + (i < S mod p ? 1 : 0) bytes (ChunkBytes): the first S mod p chunks have one
 * byte more. A range of chunks is contiguous in the buffer. Transfers of zero bytes (chunks of
 * an S smaller than p) are not listed, but their steps still count.
 *
 * <b>Schedules</b> (c(i) is chunk i of S in n chunks, r the rank, steps numbered from 0):
 * - ALL_REDUCE + NAIVE: reduce to rank 0 then broadcast. Step 0: every rank r > 0 sends S to
 *   rank 0; step 1: rank 0 sends S to every rank r > 0. Rank 0 sends and receives (n-1)S, the
 *   others S. 2 steps.
 * - ALL_REDUCE + RING: ring reduce-scatter then ring all-gather, 2(n-1) steps. Reduce-scatter
 *   step s (0..n-2): r sends c((r-s-1) mod n) to r+1 and so ends with c(r) reduced; all-gather
 *   step n-1+s: r sends c((r-s) mod n) to r+1. So r sends S - c(r) + S - c(r+1) and receives
 *   S - c(r-1) + S - c(r) (indices mod n); with n | S both are 2(n-1)/n S, NCCL's bus bandwidth
 *   factor (NCCL tests, doc/PERFORMANCE.md).
 * - ALL_REDUCE + DOUBLE_BINARY_TREE (Sanders, Speck and Träff 2009; NCCL 2.4): S is cut in two
 *   halves by ChunkBytes(S, 2, t); half t is reduced up tree t then broadcast down it. In each
 *   tree a non-root rank sends its half once to its parent and receives it once back, and sends
 *   and receives it once per child. Tree 0 is the in-order binary tree of TreeParent; tree 1 is
 *   its mirror (rank r at the place of n-1-r) for even n and its shift by one (rank r at the place
 *   of r-1 mod n) for odd n, so that (for even n) a rank that is interior in one tree is a leaf in
 *   the other: each rank sends about 2S in total. With D = ceil(log2 n) the depth of the trees, a
 *   rank at depth d sends up at step D-d and down at step D+d: 2D steps (the pipelining of the
 *   real implementation overlaps them but moves the same bytes).
 * - ALL_REDUCE + RECURSIVE_DOUBLING: n must be a power of two; at step k (0..log2 n - 1) r
 *   exchanges the whole S with r XOR 2^k. log2 n steps, log2(n) S sent and received.
 * - ALL_REDUCE + HALVING_DOUBLING (Rabenseifner): n must be a power of two (the remainder
 *   handling of Rabenseifner for other n is not supported). The REDUCE_SCATTER + HALVING_DOUBLING
 *   schedule then the ALL_GATHER + RECURSIVE_DOUBLING one, 2 log2 n steps; with n | S each rank
 *   sends and receives 2(n-1)/n S.
 * - ALL_REDUCE + HIERARCHICAL: n = m L ranks on m servers of L = localSize ranks. Ring
 *   reduce-scatter of S among the L ranks of the server (rank with local index l = r mod L ends
 *   with chunk l of S in L chunks, S_l), ring all-reduce of S_l among the m ranks of local index l
 *   (one per server: a "rail"), ring all-gather of the L chunks in the server. 2(L-1) + 2(m-1)
 *   steps, in that order. With L | S and m | S_l: intra-server 2(L-1)/L S sent, inter-server
 *   2(m-1)/m S/L sent.
 * - ALL_GATHER + RING: step s (0..n-2): r sends c((r-s) mod n) to r+1; sends S - c(r+1), receives
 *   S - c(r). ALL_GATHER + RECURSIVE_DOUBLING (power-of-two n): step k sends the 2^k chunks of
 *   the aligned block containing r to r XOR 2^k. ALL_GATHER + DIRECT: one step, r sends c(r) to
 *   every other rank.
 * - REDUCE_SCATTER + RING: the first half of ring all-reduce (n-1 steps). REDUCE_SCATTER +
 *   HALVING_DOUBLING (power-of-two n): step k, with d = n / 2^(k+1), r keeps the half of its
 *   current range of 2d chunks that contains c(r) and sends the other half to r XOR d.
 *   REDUCE_SCATTER + DIRECT: one step, r sends c(j) to every rank j != r.
 * - ALL_TO_ALL + DIRECT: one step, r sends c(j) to every rank j != r and receives c(r) from each.
 *   ALL_TO_ALL + STAGGERED: the same transfers in n-1 steps, step k (0..n-2) to rank r+k+1 mod n
 *   and from rank r-k-1 mod n.
 * - SEND_RECV + DIRECT: n = 2, rank 0 sends S to rank 1 in one step.
 * - BROADCAST + NAIVE: rank 0 sends S to rank k at step k-1 (n-1 steps). BROADCAST + RING: a
 *   chain, rank r sends S to r+1 at step r (n-1 steps; pipelined in practice, same bytes).
 *   BROADCAST + RECURSIVE_DOUBLING: binomial tree, at step k every rank r < 2^k sends S to
 *   r + 2^k if that is less than n (ceil(log2 n) steps, any n).
 *
 * Other combinations are refused. A group of one rank is valid: no transfers, no steps.
 */
class CollectiveVolume
{
  public:
    /**
     * Compute one rank's traffic in one collective.
     * @param kind the collective.
     * @param algorithm its algorithm.
     * @param n the group size, at least 1.
     * @param bytes the message size S, as defined for each kind in the class documentation.
     * @param rank the rank, less than n.
     * @param[out] out cleared, then filled with the rank's traffic (left cleared on error).
     * @param localSize ranks per server L: n must be a multiple of it. It classifies transfers
     * as intra- or inter-server and is the size of the intra-server stage of HIERARCHICAL.
     * @return an empty string, or a message naming the values of an invalid combination.
     */
    static std::string Compute(CollectiveKind kind,
                               CollectiveAlgorithm algorithm,
                               uint32_t n,
                               uint64_t bytes,
                               uint32_t rank,
                               RankVolume& out,
                               uint32_t localSize = 1);

    /**
     * @param algorithm an algorithm.
     * @return its name: "naive", "ring", "double-binary-tree", "recursive-doubling",
     * "halving-doubling", "direct", "staggered" or "hierarchical".
     */
    static std::string GetAlgorithmName(CollectiveAlgorithm algorithm);

    /**
     * @param name a name as GetAlgorithmName returns.
     * @param[out] algorithm the algorithm of that name (unchanged on error).
     * @return an empty string, or "unknown collective algorithm 'X' (known: ...)".
     */
    static std::string ParseAlgorithm(const std::string& name, CollectiveAlgorithm& algorithm);

    /**
     * @param algorithm an algorithm of the oracle.
     * @return the TypeId of the model's strategy of the same name (TypeIdAlias).
     */
    static TypeId GetStrategyTypeId(CollectiveAlgorithm algorithm);

    /**
     * @param strategy the TypeId of one of the model's strategies.
     * @return the oracle's algorithm of the same name (aborts if there is none).
     */
    static CollectiveAlgorithm GetAlgorithmOf(TypeId strategy);
};

} // namespace ns3

#endif /* COLLECTIVE_VOLUME_ORACLE_H */
