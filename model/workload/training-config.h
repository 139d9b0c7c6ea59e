/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRAINING_CONFIG_H
#define TRAINING_CONFIG_H

#include "ns3/object.h"

#include <cstdint>
#include <string>

namespace ns3
{

class TransformerSpec;

/**
 * @ingroup llm-fabric
 * The batch, precision and recomputation settings of a training run, independent of how the
 * model is split over GPUs (see ParallelLayout).
 *
 * The global batch is given either in sequences (GlobalBatchSequences) or in tokens
 * (GlobalBatchTokens): exactly one of the two must be non-zero. A batch in tokens is converted to
 * sequences by dividing by the sequence length, which must divide it exactly. The sequence length
 * is SequenceLength, or the model's (TransformerSpec::GetSequenceLength()) when SequenceLength is
 * 0; the methods without a model argument therefore need either GlobalBatchSequences or a non-zero
 * SequenceLength.
 *
 * Each of the @c dp data-parallel replicas processes GlobalBatch / dp sequences per iteration, in
 * micro-batches of MicroBatchSize sequences; the number of micro-batches per replica and
 * iteration (gradient accumulation steps) is GlobalBatch / (MicroBatchSize x dp), as in
 * Megatron-LM. Context-parallel ranks split each sequence and do not count in @c dp.
 */
class TrainingConfig : public Object
{
  public:
    /// What activations are recomputed in the backward pass instead of being kept.
    enum RecomputationKind
    {
        NONE,      ///< Keep every activation.
        SELECTIVE, ///< Recompute the attention core (softmax, dropout, QK^T and AV) only.
        FULL       ///< Keep each layer's input only and recompute the whole layer.
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a configuration with the default attribute values. */
    TrainingConfig();
    ~TrainingConfig() override;

    /**
     * Check the configuration without a model: the sequence length is SequenceLength.
     * @param dataParallel the number of data-parallel replicas (ParallelLayout's Dp).
     * @return an empty string, or a description of the first problem, naming the values.
     */
    std::string Check(uint32_t dataParallel) const;

    /**
     * Check the configuration for a model, whose sequence length applies when SequenceLength is 0.
     * @param dataParallel the number of data-parallel replicas (ParallelLayout's Dp).
     * @param model the model trained.
     * @return an empty string, or a description of the first problem, naming the values.
     */
    std::string Check(uint32_t dataParallel, const TransformerSpec& model) const;

    /**
     * Gradient accumulation steps (micro-batches per replica and iteration) without a model.
     * Aborts if Check(dataParallel) reports a problem.
     * @param dataParallel the number of data-parallel replicas.
     * @return GlobalBatch / (MicroBatchSize x dataParallel), in sequences.
     */
    uint32_t GetGradientAccumulationSteps(uint32_t dataParallel) const;

    /**
     * Gradient accumulation steps for a model. Aborts if Check(dataParallel, model) reports a
     * problem.
     * @param dataParallel the number of data-parallel replicas.
     * @param model the model trained.
     * @return GlobalBatch / (MicroBatchSize x dataParallel), in sequences.
     */
    uint32_t GetGradientAccumulationSteps(uint32_t dataParallel,
                                          const TransformerSpec& model) const;

    /**
     * @param model the model trained.
     * @return SequenceLength, or the model's sequence length if SequenceLength is 0.
     */
    uint32_t GetEffectiveSequenceLength(const TransformerSpec& model) const;

    /**
     * @param model the model trained.
     * @return the global batch in sequences (GlobalBatchSequences, or GlobalBatchTokens divided
     * by the sequence length). Aborts if neither or both are set or the division is not exact
     * (the micro-batch and data-parallel divisions are not checked).
     */
    uint64_t GetGlobalBatchSequences(const TransformerSpec& model) const;

    /**
     * @return the bytes per gradient element in the data-parallel reduction: 4 if
     * GradientReduceFp32, else GradientBytes.
     */
    uint32_t GetGradientReduceBytes() const;

    /** @return the micro-batch size, in sequences. */
    uint32_t GetMicroBatchSize() const;
    /** @return the bytes per parameter element. */
    uint32_t GetParameterBytes() const;
    /** @return the bytes per activation element. */
    uint32_t GetActivationBytes() const;
    /** @return the bytes per gradient element (before any FP32 reduction). */
    uint32_t GetGradientBytes() const;
    /** @return true if gradients are reduced in FP32. */
    bool GetGradientReduceFp32() const;
    /** @return what is recomputed in the backward pass. */
    RecomputationKind GetRecomputation() const;

    /**
     * @param kind what is recomputed in the backward pass.
     */
    void SetRecomputation(RecomputationKind kind);

  private:
    /**
     * Check the global batch alone: one of GlobalBatchSequences and GlobalBatchTokens set, and a
     * batch in tokens a multiple of the sequence length.
     * @param sequenceLength the sequence length in tokens, 0 if unknown.
     * @return an empty string, or a description of the problem.
     */
    std::string CheckBatch(uint32_t sequenceLength) const;

    /**
     * @param dataParallel the number of data-parallel replicas.
     * @param sequenceLength the sequence length in tokens, 0 if unknown.
     * @return an empty string, or a description of the first problem.
     */
    std::string CheckWith(uint32_t dataParallel, uint32_t sequenceLength) const;

    /**
     * @param sequenceLength the sequence length in tokens; CheckWith must have accepted it.
     * @return the global batch in sequences.
     */
    uint64_t GlobalSequences(uint32_t sequenceLength) const;

    uint32_t m_globalBatchSequences;   //!< Global batch in sequences (0: given in tokens).
    uint64_t m_globalBatchTokens;      //!< Global batch in tokens (0: given in sequences).
    uint32_t m_microBatchSize;         //!< Micro-batch size, in sequences.
    uint32_t m_sequenceLength;         //!< Sequence length in tokens (0: the model's).
    uint32_t m_parameterBytes;         //!< Bytes per parameter element.
    uint32_t m_activationBytes;        //!< Bytes per activation element.
    uint32_t m_gradientBytes;          //!< Bytes per gradient element.
    bool m_gradientReduceFp32;         //!< Gradients reduced in FP32 (4 bytes).
    RecomputationKind m_recomputation; //!< Activation recomputation.
};

} // namespace ns3

#endif /* TRAINING_CONFIG_H */
