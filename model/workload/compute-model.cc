/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "compute-model.h"

#include "gpu-spec.h"
#include "parallel-layout.h"
#include "transformer-spec.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <functional>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ComputeModel");

namespace
{

/// An arithmetic operation on FLOP counts.
enum class Operation
{
    ADD,     ///< a + b
    MULTIPLY ///< a x b
};

/**
 * @param operation the operation.
 * @param a an operand.
 * @param b an operand.
 * @return a + b or a x b; aborts if it does not fit in 64 bits.
 */
uint64_t
Checked(Operation operation, uint64_t a, uint64_t b)
{
    uint64_t result = 0;
    bool multiply = operation == Operation::MULTIPLY;
    bool overflow =
        multiply ? __builtin_mul_overflow(a, b, &result) : __builtin_add_overflow(a, b, &result);
    NS_ABORT_MSG_IF(overflow,
                    "ComputeModel: FLOP count overflows 64 bits ("
                        << a << (multiply ? " x " : " + ") << b << ")");
    return result;
}

/**
 * @param a a factor.
 * @param b a factor.
 * @return a x b; aborts if it does not fit in 64 bits.
 */
uint64_t
Mul(uint64_t a, uint64_t b)
{
    return Checked(Operation::MULTIPLY, a, b);
}

/**
 * @param a a term.
 * @param b a term.
 * @return a + b; aborts if it does not fit in 64 bits.
 */
uint64_t
Add(uint64_t a, uint64_t b)
{
    return Checked(Operation::ADD, a, b);
}

/**
 * The FLOPs of a micro-batch through a pipeline stage: the sum over its layers, and the LM
 * head's if the stage ends with it.
 * @param spec the model.
 * @param firstLayer the stage's first layer.
 * @param layerCount its number of layers (firstLayer + layerCount must not exceed Layers).
 * @param lmHead true if it ends with the LM head.
 * @param layerFlops the FLOPs through a layer, given its index.
 * @param headFlops the FLOPs through the LM head.
 * @return the sums, forward and backward.
 */
ComputeModel::PassFlops
SumStage(const TransformerSpec& spec,
         uint32_t firstLayer,
         uint32_t layerCount,
         bool lmHead,
         const std::function<ComputeModel::PassFlops(uint32_t)>& layerFlops,
         const std::function<ComputeModel::PassFlops()>& headFlops)
{
    NS_ABORT_MSG_IF(uint64_t{firstLayer} + layerCount > spec.GetLayers(),
                    "ComputeModel: layers " << firstLayer << " + " << layerCount
                                            << " exceed Layers (" << spec.GetLayers() << ")");
    ComputeModel::PassFlops total{0, 0};
    auto add = [&total](const ComputeModel::PassFlops& part) {
        total.forward = Add(total.forward, part.forward);
        total.backward = Add(total.backward, part.backward);
    };
    for (uint32_t layer = firstLayer; layer < firstLayer + layerCount; ++layer)
    {
        add(layerFlops(layer));
    }
    if (lmHead)
    {
        add(headFlops());
    }
    return total;
}

} // namespace

uint64_t
ComputeModel::LayerFlops::Total() const
{
    return Add(Add(attentionProjections, attentionCore), Add(ffn, router));
}

void
ComputeModel::CheckArguments(const TransformerSpec& spec,
                             uint32_t microBatch,
                             uint32_t sequenceLength,
                             uint32_t tp,
                             uint32_t cp)
{
    std::string problem = spec.Check();
    NS_ABORT_MSG_IF(!problem.empty(), "ComputeModel: " << problem);
    NS_ABORT_MSG_IF(microBatch == 0 || sequenceLength == 0,
                    "ComputeModel: micro-batch (" << microBatch << ") and sequence length ("
                                                  << sequenceLength << ") must be at least 1");
    NS_ABORT_MSG_IF(tp == 0 || spec.GetHiddenSize() % tp != 0,
                    "ComputeModel: tp (" << tp << ") does not divide HiddenSize ("
                                         << spec.GetHiddenSize() << ")");
    NS_ABORT_MSG_IF(cp == 0 || sequenceLength % cp != 0,
                    "ComputeModel: cp (" << cp << ") does not divide the sequence length ("
                                         << sequenceLength << ")");
}

ComputeModel::LayerFlops
ComputeModel::GetLayerForwardBreakdown(const TransformerSpec& spec,
                                       uint32_t layer,
                                       uint32_t microBatch,
                                       uint32_t sequenceLength,
                                       uint32_t tp,
                                       uint32_t cp)
{
    NS_LOG_FUNCTION(layer << microBatch << sequenceLength << tp << cp);
    CheckArguments(spec, microBatch, sequenceLength, tp, cp);
    // Every term is 2 x b x s x h x (something); this rank has s / cp of the tokens (queries) and
    // h / tp of one of the dimensions of each product, so it executes exactly 1 / (tp x cp).
    uint64_t hidden = spec.GetHiddenSize();
    uint64_t kvSize = static_cast<uint64_t>(spec.GetKvHeads()) * spec.GetHeadSize();
    uint64_t ffnSize = spec.GetFfnHiddenSize();
    uint64_t matrices = spec.GetGatedFfn() ? 3 : 2;
    // 2 x b x (s / cp) x (h / tp): the factor every term shares.
    uint64_t base = Mul(Mul(2, microBatch), Mul(sequenceLength / cp, hidden / tp));

    LayerFlops flops{};
    // Q and output: h each; K and V: kv each.
    flops.attentionProjections = Mul(base, Add(Mul(2, hidden), Mul(2, kvSize)));
    // QK^T and AV: each query attends to all s keys, over h (all query heads).
    flops.attentionCore = Mul(Mul(base, 2), sequenceLength);
    uint64_t oneFfn = Mul(Mul(base, matrices), ffnSize);
    if (spec.IsMoeLayer(layer))
    {
        flops.ffn = Mul(oneFfn, uint64_t{spec.GetTopK()} + spec.GetSharedExperts());
        flops.router = Mul(base, spec.GetExperts());
    }
    else
    {
        flops.ffn = oneFfn;
        flops.router = 0;
    }
    return flops;
}

ComputeModel::PassFlops
ComputeModel::GetLayerFlops(const TransformerSpec& spec, uint32_t layer, const Pass& pass)
{
    LayerFlops forward = GetLayerForwardBreakdown(spec,
                                                  layer,
                                                  pass.microBatch,
                                                  pass.sequenceLength,
                                                  pass.tp,
                                                  pass.cp);
    uint64_t total = forward.Total();
    uint64_t backward = Mul(2, total);
    switch (pass.recomputation)
    {
    case TrainingConfig::FULL:
        backward = Add(backward, total);
        break;
    case TrainingConfig::SELECTIVE:
        backward = Add(backward, forward.attentionCore);
        break;
    case TrainingConfig::NONE:
        break;
    }
    return {total, backward};
}

ComputeModel::PassFlops
ComputeModel::GetLmHeadFlops(const TransformerSpec& spec,
                             uint32_t microBatch,
                             uint32_t sequenceLength,
                             uint32_t tp,
                             uint32_t cp)
{
    NS_LOG_FUNCTION(microBatch << sequenceLength << tp << cp);
    CheckArguments(spec, microBatch, sequenceLength, tp, cp);
    uint64_t base =
        Mul(Mul(2, microBatch), Mul(sequenceLength / cp, uint64_t{spec.GetHiddenSize()} / tp));
    uint64_t forward = Mul(base, spec.GetVocabularySize());
    return {forward, Mul(2, forward)};
}

ComputeModel::PassFlops
ComputeModel::GetStageFlops(const TransformerSpec& spec,
                            uint32_t firstLayer,
                            uint32_t layerCount,
                            bool lmHead,
                            const Pass& pass)
{
    NS_LOG_FUNCTION(firstLayer << layerCount << lmHead << pass.microBatch << pass.sequenceLength
                               << pass.recomputation << pass.tp << pass.cp);
    CheckArguments(spec, pass.microBatch, pass.sequenceLength, pass.tp, pass.cp);
    return SumStage(
        spec,
        firstLayer,
        layerCount,
        lmHead,
        [&](uint32_t layer) { return GetLayerFlops(spec, layer, pass); },
        [&]() {
            return GetLmHeadFlops(spec, pass.microBatch, pass.sequenceLength, pass.tp, pass.cp);
        });
}

ComputeModel::PassFlops
ComputeModel::GetChunkFlops(const TransformerSpec& spec,
                            const TrainingConfig& config,
                            const ParallelLayout& layout,
                            uint32_t chunk)
{
    const uint32_t chunks = layout.GetPp() * layout.GetVirtualStages();
    const uint32_t layers = spec.GetLayers() / chunks;
    return GetStageFlops(spec,
                         chunk * layers,
                         layers,
                         chunk + 1 == chunks,
                         {config.GetMicroBatchSize(),
                          config.GetEffectiveSequenceLength(spec),
                          config.GetRecomputation(),
                          layout.GetTp(),
                          layout.GetCp()});
}

uint64_t
ComputeModel::GetStepFlops(const TransformerSpec& spec, const Pass& pass)
{
    PassFlops step = GetStageFlops(spec, 0, spec.GetLayers(), true, pass);
    return Add(step.forward, step.backward);
}

uint64_t
ComputeModel::GetModelFlopsPerToken(const TransformerSpec& spec)
{
    uint32_t sequenceLength = spec.GetSequenceLength();
    // Every term has the factor s (b x s tokens), so the division is exact.
    return GetStepFlops(spec, {1, sequenceLength, TrainingConfig::NONE}) / sequenceLength;
}

Time
ComputeModel::GetDuration(uint64_t flops, const GpuSpec& gpu)
{
    std::string problem = gpu.Check();
    NS_ABORT_MSG_IF(!problem.empty(), "ComputeModel: " << problem);
    return Seconds(static_cast<double>(flops) / gpu.GetEffectiveFlops());
}

} // namespace ns3
