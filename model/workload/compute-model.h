/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COMPUTE_MODEL_H
#define COMPUTE_MODEL_H

#include "training-config.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

class GpuSpec;
class ParallelLayout;
class TransformerSpec;

/**
 * @ingroup llm-fabric
 * The floating-point operations of training a decoder-only transformer, per layer and micro-batch,
 * and the time a GPU takes to execute them.
 *
 * <b>What is counted.</b> Only matrix multiplications, each of an (m x k) by (k x n) product
 * counted as 2mkn FLOPs (a multiply and an add), as in Narayanan et al., "Efficient Large-Scale
 * Language Model Training on GPU Clusters Using Megatron-LM" (SC 2021), appendix "Floating-point
 * operations". Norms, activations, softmax, dropout, residual additions, biases, rotary
 * embeddings and embedding look-ups are left out. For a micro-batch of b sequences of s tokens,
 * hidden size h, kv = KvHeads x h / Heads (the K/V width of grouped-query attention), FFN inner
 * size f and vocabulary V, the forward FLOPs of a layer are:
 * - attention projections: Q 2bsh^2, K 2bsh kv, V 2bsh kv, output 2bsh^2;
 * - attention core: scores QK^T 2bs^2h and weighted sum of the values 2bs^2h, for every query head
 *   whatever KvHeads is. Causal masking is @em not taken into account (the full s x s product is
 *   counted), as in Narayanan et al. 2021 and Korthikanti et al. 2022; kernels that skip the
 *   masked half (FlashAttention with causal=True) execute about half of this term;
 * - FFN: 2bshf per matrix, 3 matrices if gated (SwiGLU) else 2;
 * - in a mixture-of-experts layer, (TopK + SharedExperts) FFNs per token, plus the router
 *   2bshE (E = Experts). Tokens are assumed evenly spread over the experts, none dropped or
 *   padded: the capacity factor is not used.
 *
 * The LM head (output projection to the vocabulary) is 2bshV, once per micro-batch, on the last
 * pipeline stage; tied or not, it is a full product.
 *
 * <b>Backward and recomputation.</b> The backward pass of every product computes two products of
 * the same size (gradients of the input and of the weight): backward = 2 x forward. Recomputation
 * is done during the backward pass and counted in it:
 * - FULL (Megatron-LM's full activation checkpointing) runs each layer's forward again: a layer's
 *   forward + backward becomes 4 x forward instead of 3 x forward. The LM head is not
 *   recomputed;
 * - SELECTIVE (Korthikanti et al., "Reducing Activation Recomputation in Large Transformer
 *   Models", MLSys 2023, section 5) recomputes the attention core only: 4bs^2h per layer.
 *
 * With FULL recomputation, summing a dense multi-head non-gated model with f = 4h gives
 * Narayanan et al.'s equation for the FLOPs of an iteration of B sequences:
 * 96Bslh^2 (1 + s/(6h) + V/(16lh)) = l x 4 x (24Bsh^2 + 4Bs^2h) + 3 x 2BshV.
 *
 * <b>Parallelism.</b> The per-rank share is given by plain degrees: tensor parallelism tp splits
 * every product of a layer (heads, FFN columns or rows, experts' matrices, router and LM head)
 * evenly, and context parallelism cp gives each rank s/cp of the queries of every sequence, which
 * attend to all s keys (ring attention with load balancing): each rank executes 1/(tp x cp) of
 * every term. tp must divide HiddenSize and cp the sequence length, which makes every share exact.
 * Pipeline parallelism is expressed by the range of layers of a stage; data and expert
 * parallelism do not change a rank's share of a micro-batch (with balanced routing).
 *
 * All counts are exact 64-bit integers; a count that would overflow aborts.
 */
class ComputeModel
{
  public:
    /// What activations are recomputed (the training configuration's choice).
    using Recomputation = TrainingConfig::RecomputationKind;

    /**
     * @ingroup llm-fabric
     * The forward FLOPs of one layer for one rank, by part.
     */
    struct LayerFlops
    {
        uint64_t attentionProjections; //!< Q, K, V and output projections.
        uint64_t attentionCore;        //!< Scores QK^T and weighted sum of the values.
        uint64_t ffn;                  //!< The FFN, or the routed and shared experts used.
        uint64_t router;               //!< The router of a mixture-of-experts layer, else 0.

        /** @return the sum of the four parts. */
        uint64_t Total() const;
    };

    /**
     * @param spec the model.
     * @param layer a layer index, less than the number of layers.
     * @param microBatch the number of sequences b of the micro-batch (at least 1).
     * @param sequenceLength the number of tokens s of each sequence (at least 1).
     * @param tp the tensor-parallel degree; must divide HiddenSize.
     * @param cp the context-parallel degree; must divide sequenceLength.
     * @return the forward FLOPs of that layer executed by one rank, by part.
     */
    static LayerFlops GetLayerForwardBreakdown(const TransformerSpec& spec,
                                               uint32_t layer,
                                               uint32_t microBatch,
                                               uint32_t sequenceLength,
                                               uint32_t tp = 1,
                                               uint32_t cp = 1);

    /// The FLOPs of one micro-batch through a part of the model (a layer, the LM head, a
    /// pipeline stage or model chunk), for one rank.
    struct PassFlops
    {
        uint64_t forward;  //!< Forward.
        uint64_t backward; //!< Backward, recomputation included.
    };

    /// One micro-batch's pass as one rank of a tp x cp group executes it.
    struct Pass
    {
        uint32_t microBatch;                                //!< sequences b (at least 1)
        uint32_t sequenceLength;                            //!< tokens s of each (at least 1)
        Recomputation recomputation = TrainingConfig::NONE; //!< recomputed before the backward
        uint32_t tp = 1; //!< tensor-parallel degree; must divide HiddenSize
        uint32_t cp = 1; //!< context-parallel degree; must divide sequenceLength
    };

    /**
     * @param spec the model.
     * @param layer a layer index, less than the number of layers.
     * @param pass the micro-batch, sequence length, recomputation and degrees.
     * @return the FLOPs of that layer executed by one rank: the forward (the sum of
     * GetLayerForwardBreakdown) and the backward, twice the forward plus the recomputed forward
     * (FULL) or attention core (SELECTIVE).
     */
    static PassFlops GetLayerFlops(const TransformerSpec& spec, uint32_t layer, const Pass& pass);

    /**
     * @param spec the model.
     * @param microBatch the number of sequences b of the micro-batch.
     * @param sequenceLength the number of tokens s of each sequence.
     * @param tp the tensor-parallel degree; must divide HiddenSize.
     * @param cp the context-parallel degree; must divide sequenceLength.
     * @return the FLOPs of the LM head executed by one rank: the forward 2bshV / (tp x cp) and
     * the backward, twice the forward (the LM head is never recomputed).
     */
    static PassFlops GetLmHeadFlops(const TransformerSpec& spec,
                                    uint32_t microBatch,
                                    uint32_t sequenceLength,
                                    uint32_t tp = 1,
                                    uint32_t cp = 1);

    /**
     * @param spec the model.
     * @param firstLayer the first layer of the pipeline stage.
     * @param layerCount the number of consecutive layers of the stage (firstLayer + layerCount
     * must not exceed the number of layers; 0 is allowed).
     * @param lmHead true if the stage ends with the LM head (the last stage).
     * @param pass the micro-batch, sequence length, recomputation and degrees.
     * @return the forward and backward (recomputation included) FLOPs of one micro-batch through
     * the stage, for one rank: the sums of GetLayerFlops over its layers and of GetLmHeadFlops if
     * it ends with the LM head.
     */
    static PassFlops GetStageFlops(const TransformerSpec& spec,
                                   uint32_t firstLayer,
                                   uint32_t layerCount,
                                   bool lmHead,
                                   const Pass& pass);

    /**
     * The work of model chunk c of a (possibly interleaved) pipeline: it holds layers
     * [c Lc, (c + 1) Lc), Lc = Layers / (Pp v) (Megatron-LM's interleaved assignment; v = 1 gives
     * contiguous stages), and the last chunk the LM head. Pipeline stage p runs chunks k Pp + p.
     * @param spec the model.
     * @param config the micro-batch size, the (effective) sequence length and the recomputation.
     * @param layout Tp, Cp, Pp and the virtual stages v.
     * @param chunk the chunk, less than Pp v.
     * @return its FLOPs of one micro-batch, for one rank of its tp x cp group.
     */
    static PassFlops GetChunkFlops(const TransformerSpec& spec,
                                   const TrainingConfig& config,
                                   const ParallelLayout& layout,
                                   uint32_t chunk);

    /**
     * @param spec the model.
     * @param pass the micro-batch, sequence length, recomputation and degrees.
     * @return the forward and backward FLOPs of one micro-batch through the whole model (every
     * layer and the LM head), for one rank of a tp x cp group.
     */
    static uint64_t GetStepFlops(const TransformerSpec& spec, const Pass& pass);

    /**
     * The model FLOPs of training on one token (forward and backward, no recomputation), at the
     * model's SequenceLength S: 6 N + 12 l S h, where N counts the weights of the matrix products a
     * token goes through (per layer Q, K, V, output, the TopK routed and the shared experts' or
     * the dense FFN's matrices, the router; and the LM head, V x h) and 12 l S h is the attention
     * core. This is GetStepFlops(spec, {1, S, NONE}) / S exactly; PaLM's (Chowdhery et al. 2022,
     * appendix B) 6N + 12LHQT is the same with N counted as the model's parameters.
     * @param spec the model.
     * @return the FLOPs per token.
     */
    static uint64_t GetModelFlopsPerToken(const TransformerSpec& spec);

    /**
     * @param flops a number of FLOPs.
     * @param gpu the GPU executing them.
     * @return flops / (PeakFlops x Mfu), as a time (rounded to the time resolution).
     */
    static Time GetDuration(uint64_t flops, const GpuSpec& gpu);

  private:
    /**
     * Abort unless the model is consistent, the shape is at least 1 x 1 and the degrees divide it.
     * @param spec the model.
     * @param microBatch the number of sequences.
     * @param sequenceLength the sequence length.
     * @param tp the tensor-parallel degree.
     * @param cp the context-parallel degree.
     */
    static void CheckArguments(const TransformerSpec& spec,
                               uint32_t microBatch,
                               uint32_t sequenceLength,
                               uint32_t tp,
                               uint32_t cp);
};

} // namespace ns3

#endif /* COMPUTE_MODEL_H */
