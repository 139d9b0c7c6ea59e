/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "training-config.h"

#include "transformer-spec.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TrainingConfig");

NS_OBJECT_ENSURE_REGISTERED(TrainingConfig);

namespace
{

/// Largest number of bytes per element.
constexpr uint32_t MAX_ELEMENT_BYTES = 8;

} // namespace

TypeId
TrainingConfig::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TrainingConfig")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<TrainingConfig>()
            .AddAttribute("GlobalBatchSequences",
                          "Global batch per iteration, in sequences; 0 if it is given by "
                          "GlobalBatchTokens. Exactly one of the two must be non-zero.",
                          UintegerValue(512),
                          MakeUintegerAccessor(&TrainingConfig::m_globalBatchSequences),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("GlobalBatchTokens",
                          "Global batch per iteration, in tokens (a multiple of the sequence "
                          "length); 0 if it is given by GlobalBatchSequences.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingConfig::m_globalBatchTokens),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("MicroBatchSize",
                          "Micro-batch size, in sequences, of one forward and backward pass.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TrainingConfig::m_microBatchSize),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SequenceLength",
                          "Sequence length in tokens; 0 uses the model's.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TrainingConfig::m_sequenceLength),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ParameterBytes",
                          "Bytes per parameter element (2 for bf16).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&TrainingConfig::m_parameterBytes),
                          MakeUintegerChecker<uint32_t>(1, MAX_ELEMENT_BYTES))
            .AddAttribute("ActivationBytes",
                          "Bytes per activation element (2 for bf16).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&TrainingConfig::m_activationBytes),
                          MakeUintegerChecker<uint32_t>(1, MAX_ELEMENT_BYTES))
            .AddAttribute("GradientBytes",
                          "Bytes per gradient element (2 for bf16 gradients, 4 for FP32).",
                          UintegerValue(2),
                          MakeUintegerAccessor(&TrainingConfig::m_gradientBytes),
                          MakeUintegerChecker<uint32_t>(1, MAX_ELEMENT_BYTES))
            .AddAttribute("GradientReduceFp32",
                          "Gradients are reduced across data-parallel ranks in FP32: the "
                          "reduction moves 4 bytes per element whatever GradientBytes is.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TrainingConfig::m_gradientReduceFp32),
                          MakeBooleanChecker())
            .AddAttribute("Recomputation",
                          "Activation recomputation in the backward pass: none, selective "
                          "(attention core) or full (whole layers).",
                          EnumValue(TrainingConfig::NONE),
                          LLM_FABRIC_ENUM_ACCESSOR(TrainingConfig::RecomputationKind,
                                                   &TrainingConfig::m_recomputation),
                          MakeEnumChecker(TrainingConfig::NONE,
                                          "None",
                                          TrainingConfig::SELECTIVE,
                                          "Selective",
                                          TrainingConfig::FULL,
                                          "Full"));
    return tid;
}

TrainingConfig::TrainingConfig()
    : m_globalBatchSequences(512),
      m_globalBatchTokens(0),
      m_microBatchSize(1),
      m_sequenceLength(0),
      m_parameterBytes(2),
      m_activationBytes(2),
      m_gradientBytes(2),
      m_gradientReduceFp32(false),
      m_recomputation(NONE)
{
    NS_LOG_FUNCTION(this);
}

TrainingConfig::~TrainingConfig()
{
    NS_LOG_FUNCTION(this);
}

std::string
TrainingConfig::CheckBatch(uint32_t sequenceLength) const
{
    std::ostringstream problem;
    if (m_globalBatchSequences == 0 && m_globalBatchTokens == 0)
    {
        return "GlobalBatchSequences and GlobalBatchTokens are both 0: set one of them";
    }
    if (m_globalBatchSequences != 0 && m_globalBatchTokens != 0)
    {
        problem << "GlobalBatchSequences (" << m_globalBatchSequences << ") and GlobalBatchTokens ("
                << m_globalBatchTokens << ") are both set: set only one of them";
    }
    else if (m_globalBatchTokens != 0 && sequenceLength == 0)
    {
        problem << "GlobalBatchTokens (" << m_globalBatchTokens
                << ") needs a sequence length: set SequenceLength or give the model";
    }
    else if (m_globalBatchTokens != 0 && m_globalBatchTokens % sequenceLength != 0)
    {
        problem << "GlobalBatchTokens (" << m_globalBatchTokens
                << ") is not a multiple of the sequence length (" << sequenceLength << ")";
    }
    return problem.str();
}

std::string
TrainingConfig::CheckWith(uint32_t dataParallel, uint32_t sequenceLength) const
{
    if (dataParallel == 0)
    {
        return "dp must be at least 1";
    }
    if (m_microBatchSize == 0)
    {
        // Only reachable by bypassing the attribute checker.
        return "MicroBatchSize must be at least 1";
    }
    std::string batchProblem = CheckBatch(sequenceLength);
    if (!batchProblem.empty())
    {
        return batchProblem;
    }
    std::ostringstream problem;
    uint64_t sequences = GlobalSequences(sequenceLength);
    uint64_t perStep = static_cast<uint64_t>(m_microBatchSize) * dataParallel;
    if (sequences % perStep != 0)
    {
        problem << "global batch of " << sequences
                << " sequences is not divisible by MicroBatchSize " << m_microBatchSize << " x dp "
                << dataParallel << " = " << perStep;
    }
    else if (sequences / perStep > UINT32_MAX)
    {
        problem << "global batch of " << sequences << " sequences gives " << sequences / perStep
                << " gradient accumulation steps, more than 2^32 - 1";
    }
    return problem.str();
}

uint64_t
TrainingConfig::GlobalSequences(uint32_t sequenceLength) const
{
    if (m_globalBatchSequences != 0)
    {
        return m_globalBatchSequences;
    }
    return m_globalBatchTokens / sequenceLength;
}

std::string
TrainingConfig::Check(uint32_t dataParallel) const
{
    return CheckWith(dataParallel, m_sequenceLength);
}

std::string
TrainingConfig::Check(uint32_t dataParallel, const TransformerSpec& model) const
{
    return CheckWith(dataParallel, GetEffectiveSequenceLength(model));
}

uint32_t
TrainingConfig::GetGradientAccumulationSteps(uint32_t dataParallel) const
{
    std::string problem = CheckWith(dataParallel, m_sequenceLength);
    NS_ABORT_MSG_IF(!problem.empty(), "TrainingConfig: " << problem);
    return static_cast<uint32_t>(GlobalSequences(m_sequenceLength) /
                                 (static_cast<uint64_t>(m_microBatchSize) * dataParallel));
}

uint32_t
TrainingConfig::GetGradientAccumulationSteps(uint32_t dataParallel,
                                             const TransformerSpec& model) const
{
    uint32_t sequenceLength = GetEffectiveSequenceLength(model);
    std::string problem = CheckWith(dataParallel, sequenceLength);
    NS_ABORT_MSG_IF(!problem.empty(), "TrainingConfig: " << problem);
    return static_cast<uint32_t>(GlobalSequences(sequenceLength) /
                                 (static_cast<uint64_t>(m_microBatchSize) * dataParallel));
}

uint32_t
TrainingConfig::GetEffectiveSequenceLength(const TransformerSpec& model) const
{
    return m_sequenceLength != 0 ? m_sequenceLength : model.GetSequenceLength();
}

uint64_t
TrainingConfig::GetGlobalBatchSequences(const TransformerSpec& model) const
{
    uint32_t sequenceLength = GetEffectiveSequenceLength(model);
    std::string problem = CheckBatch(sequenceLength);
    NS_ABORT_MSG_IF(!problem.empty(), "TrainingConfig: " << problem);
    return GlobalSequences(sequenceLength);
}

uint32_t
TrainingConfig::GetGradientReduceBytes() const
{
    return m_gradientReduceFp32 ? 4 : m_gradientBytes;
}

uint32_t
TrainingConfig::GetMicroBatchSize() const
{
    return m_microBatchSize;
}

uint32_t
TrainingConfig::GetParameterBytes() const
{
    return m_parameterBytes;
}

uint32_t
TrainingConfig::GetActivationBytes() const
{
    return m_activationBytes;
}

uint32_t
TrainingConfig::GetGradientBytes() const
{
    return m_gradientBytes;
}

bool
TrainingConfig::GetGradientReduceFp32() const
{
    return m_gradientReduceFp32;
}

TrainingConfig::RecomputationKind
TrainingConfig::GetRecomputation() const
{
    return m_recomputation;
}

void
TrainingConfig::SetRecomputation(RecomputationKind kind)
{
    NS_LOG_FUNCTION(this << kind);
    m_recomputation = kind;
}

} // namespace ns3
