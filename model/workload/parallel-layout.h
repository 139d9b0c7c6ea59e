/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef PARALLEL_LAYOUT_H
#define PARALLEL_LAYOUT_H

#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class TransformerSpec;

/**
 * @ingroup llm-fabric
 * How a training job splits a model over GPUs: the degrees of tensor (Tp), context (Cp), pipeline
 * (Pp), data (Dp) and expert (Ep) parallelism, the sharding of optimizer state, and the mapping of
 * global ranks to coordinates, which decides which ranks form each communication group.
 *
 * As in Megatron-LM the world size is Tp x Cp x Pp x Dp; expert parallelism does not multiply
 * it. Expert-parallel groups are carved out of the Dp x Cp ranks that share a tensor and pipeline
 * coordinate: Ep must divide Dp x Cp, and the remaining (Dp x Cp) / Ep ranks holding the same
 * expert shard form an expert-data-parallel group. The tensor-parallel degree of the experts is
 * Tp (there is no separate expert tensor parallelism).
 *
 * <b>Rank order.</b> RankOrder names the five dimensions tp, cp, ep, dp and pp, separated by '-',
 * each exactly once; the first named varies fastest as the global rank increases. For the
 * dimensions tp, cp, dp and pp, the order with ep skipped is a mixed-radix numbering:
 * rank = sum over the four of coordinate x stride, where the stride of the first named is 1 and
 * the stride of each next is the stride of the one before times its size. With "tp-cp-ep-dp-pp"
 * (Megatron's default), rank = tp + Tp x (cp + Cp x (dp + Dp x pp)).
 *
 * <b>Expert coordinates.</b> The ep position in RankOrder orders the expert groups. The
 * data-parallel index of a rank, j in [0, Dp x Cp), combines its cp and dp coordinates, the one
 * named first in RankOrder varying fastest: j = cp + Cp x dp if cp comes before dp, else
 * j = dp + Dp x cp. With E = (Dp x Cp) / Ep ranks per expert-data-parallel group:
 * - if ep comes before dp in RankOrder, ep = j mod Ep and expertDp = j / Ep;
 * - otherwise expertDp = j mod E and ep = j / E.
 * When cp, ep and dp are adjacent in RankOrder (tp and pp not between them), this is the
 * numbering of Megatron-LM's expert rank generator, which lays out tp, ep, expert-dp and pp in the
 * same order with cp folded into expert-dp. Otherwise Megatron-LM would give experts other
 * pipeline strides; here a rank keeps its tp and pp coordinates in expert groups.
 *
 * <b>Servers.</b> Rank r is on server r / GpusPerServer.
 */
class ParallelLayout : public Object
{
  public:
    /// How attention is computed across context-parallel ranks.
    enum CpStyle
    {
        RING_ALLGATHER, ///< Ring attention / all-gather of K and V (Megatron-LM's context
                        ///< parallel).
        ULYSSES         ///< DeepSpeed-Ulysses: all-to-all from sequence shards to head shards.
    };

    /// PyTorch FSDP sharding strategy, an alternative to ZeRO.
    enum FsdpKind
    {
        NONE,          ///< No FSDP.
        FULL_SHARD,    ///< Parameters, gradients and optimizer state sharded (ZeRO-3-like).
        SHARD_GRAD_OP, ///< Gradients and optimizer state sharded (ZeRO-2-like).
        HYBRID_SHARD   ///< Full sharding within a node, replication across nodes.
    };

    /// A communication group of a rank.
    enum GroupKind
    {
        TP,        ///< Tensor parallel: the ranks differing only in tp.
        CP,        ///< Context parallel: the ranks differing only in cp.
        DP,        ///< Data parallel: the ranks differing only in dp.
        PP,        ///< Pipeline parallel: the ranks differing only in pp.
        EP,        ///< Expert parallel: same tp, pp and expertDp, differing in ep.
        EXPERT_DP, ///< Expert data parallel: same tp, pp and ep (the ranks sharing an expert
                   ///< shard).
        DP_CP      ///< Data and context parallel: same tp and pp (the dense gradient reduction).
    };

    /// The coordinates of a global rank.
    struct RankCoordinates
    {
        uint32_t tp;       //!< Tensor-parallel coordinate, in [0, Tp).
        uint32_t cp;       //!< Context-parallel coordinate, in [0, Cp).
        uint32_t dp;       //!< Data-parallel coordinate, in [0, Dp).
        uint32_t pp;       //!< Pipeline stage, in [0, Pp).
        uint32_t ep;       //!< Expert-parallel coordinate, in [0, Ep) (derived).
        uint32_t expertDp; //!< Expert-data-parallel coordinate, in [0, Dp x Cp / Ep) (derived).
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a layout with every degree 1 and the default rank order. */
    ParallelLayout();
    ~ParallelLayout() override;

    /**
     * Check that the layout fits a model and a number of GPUs.
     * @param model the model trained.
     * @param gpus the number of GPUs of the job.
     * @return an empty string, or a description of the first problem found, naming the values.
     */
    std::string Check(const TransformerSpec& model, uint32_t gpus) const;

    /**
     * Check RankOrder alone.
     * @return an empty string, or why it is not a permutation of tp, cp, ep, dp and pp.
     */
    std::string CheckRankOrder() const;

    /** @return Tp x Cp x Pp x Dp; aborts if it exceeds 2^32 - 1. */
    uint32_t GetWorldSize() const;

    /**
     * Aborts if RankOrder is malformed, Ep does not divide Dp x Cp, or the rank is out of range.
     * @param rank a global rank, less than GetWorldSize().
     * @return its coordinates.
     */
    RankCoordinates GetCoordinates(uint32_t rank) const;

    /**
     * Aborts if RankOrder is malformed or a coordinate is out of range.
     * @param coordinates the tp, cp, dp and pp coordinates (ep and expertDp are ignored: they
     * follow from cp and dp).
     * @return the global rank.
     */
    uint32_t GetRank(const RankCoordinates& coordinates) const;

    /**
     * @param kind the group.
     * @param rank a global rank, less than GetWorldSize().
     * @return the global ranks of that group of @p rank (including it), in ascending order,
     * which is also the order of their coordinate in the group.
     */
    std::vector<uint32_t> GetGroup(GroupKind kind, uint32_t rank) const;

    /**
     * @param rank a global rank.
     * @return its server, rank / GpusPerServer.
     */
    uint32_t GetServer(uint32_t rank) const;

    /**
     * @param kind the group.
     * @param rank a global rank, less than GetWorldSize().
     * @return true if every member of that group of @p rank is on the server of @p rank.
     */
    bool IsGroupIntraServer(GroupKind kind, uint32_t rank) const;

    /** @return the data-parallel degree. */
    uint32_t GetDp() const;
    /** @return the tensor-parallel degree. */
    uint32_t GetTp() const;
    /** @return the pipeline-parallel degree. */
    uint32_t GetPp() const;
    /** @return the virtual pipeline stages (model chunks) per pipeline rank. */
    uint32_t GetVirtualStages() const;
    /** @return the context-parallel degree. */
    uint32_t GetCp() const;
    /** @return how attention is computed across context-parallel ranks. */
    CpStyle GetCpStyle() const;
    /** @return the expert-parallel degree. */
    uint32_t GetEp() const;
    /** @return the expert-data-parallel degree, Dp x Cp / Ep (0 if Ep does not divide it). */
    uint32_t GetExpertDp() const;
    /** @return true if sequence parallelism is on. */
    bool GetSequenceParallel() const;
    /** @return the ZeRO stage. */
    uint32_t GetZeroStage() const;
    /** @return the FSDP sharding strategy. */
    FsdpKind GetFsdp() const;
    /** @return the rank order string. */
    std::string GetRankOrder() const;
    /** @return the GPUs per server. */
    uint32_t GetGpusPerServer() const;
    /** @return true if tensor-parallel groups may span servers. */
    bool GetAllowTpAcrossServers() const;

    /**
     * @param style how attention is computed across context-parallel ranks.
     */
    void SetCpStyle(CpStyle style);
    /**
     * @param kind the FSDP sharding strategy.
     */
    void SetFsdp(FsdpKind kind);

  private:
    /// The dimensions named in RankOrder.
    enum Dimension
    {
        DIM_TP, ///< tp
        DIM_CP, ///< cp
        DIM_EP, ///< ep
        DIM_DP, ///< dp
        DIM_PP  ///< pp
    };

    /// Number of dimensions in RankOrder.
    static constexpr uint32_t DIMENSIONS = 5;

    /**
     * Parse RankOrder.
     * @param[out] order the dimensions, fastest first.
     * @return an empty string, or why RankOrder is malformed.
     */
    std::string ParseRankOrder(std::array<Dimension, DIMENSIONS>& order) const;

    /**
     * @return the parsed RankOrder, fastest first; aborts if it is malformed.
     */
    std::array<Dimension, DIMENSIONS> GetOrder() const;

    /**
     * @param dimension DIM_TP, DIM_CP, DIM_DP or DIM_PP.
     * @return its size.
     */
    uint32_t SizeOf(Dimension dimension) const;

    /**
     * @param order the parsed RankOrder.
     * @param first one dimension.
     * @param second another dimension.
     * @return true if @p first comes before (varies faster than) @p second.
     */
    static bool Before(const std::array<Dimension, DIMENSIONS>& order,
                       Dimension first,
                       Dimension second);

    /**
     * @param order the parsed RankOrder.
     * @param cp a cp coordinate.
     * @param dp a dp coordinate.
     * @return the data-parallel index j of those coordinates.
     */
    uint32_t DataIndex(const std::array<Dimension, DIMENSIONS>& order,
                       uint32_t cp,
                       uint32_t dp) const;

    /**
     * @param order the parsed RankOrder.
     * @param ep an ep coordinate.
     * @param expertDp an expert-data-parallel coordinate.
     * @return the data-parallel index j of those coordinates.
     */
    uint32_t ExpertDataIndex(const std::array<Dimension, DIMENSIONS>& order,
                             uint32_t ep,
                             uint32_t expertDp) const;

    /**
     * Set the cp and dp coordinates of a data-parallel index.
     * @param order the parsed RankOrder.
     * @param index a data-parallel index j.
     * @param[out] coordinates receives cp and dp.
     */
    void SetDataIndex(const std::array<Dimension, DIMENSIONS>& order,
                      uint32_t index,
                      RankCoordinates& coordinates) const;

    /**
     * @param order the parsed RankOrder.
     * @param coordinates tp, cp, dp and pp coordinates, within range.
     * @return the global rank.
     */
    uint32_t RankOf(const std::array<Dimension, DIMENSIONS>& order,
                    const RankCoordinates& coordinates) const;

    uint32_t m_dp;               //!< Data-parallel degree.
    uint32_t m_tp;               //!< Tensor-parallel degree.
    uint32_t m_pp;               //!< Pipeline-parallel degree.
    uint32_t m_virtualStages;    //!< Virtual pipeline stages per pipeline rank.
    uint32_t m_cp;               //!< Context-parallel degree.
    CpStyle m_cpStyle;           //!< Context-parallel attention style.
    uint32_t m_ep;               //!< Expert-parallel degree.
    bool m_sequenceParallel;     //!< Sequence parallelism.
    uint32_t m_zeroStage;        //!< ZeRO stage.
    FsdpKind m_fsdp;             //!< FSDP sharding strategy.
    std::string m_rankOrder;     //!< Rank order, fastest first.
    uint32_t m_gpusPerServer;    //!< GPUs per server.
    bool m_allowTpAcrossServers; //!< Tensor-parallel groups may span servers.
};

} // namespace ns3

#endif /* PARALLEL_LAYOUT_H */
