/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "transformer-spec.h"

#include "preset-table.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/log.h"
#include "ns3/uinteger.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TransformerSpec");

NS_OBJECT_ENSURE_REGISTERED(TransformerSpec);

namespace
{

/// Largest number of layers.
constexpr uint32_t MAX_LAYERS = 1024;
/// Largest hidden size, number of heads or number of KV heads.
constexpr uint32_t MAX_HIDDEN = 262144;
/// Largest FFN inner dimension.
constexpr uint32_t MAX_FFN = 1048576;
/// Largest vocabulary size or sequence length.
constexpr uint32_t MAX_TOKENS = 16777216;
/// Largest number of routed experts (and of TopK).
constexpr uint32_t MAX_EXPERTS = 1024;
/// Largest number of shared experts.
constexpr uint32_t MAX_SHARED_EXPERTS = 64;
/// Largest capacity factor.
constexpr double MAX_CAPACITY_FACTOR = 1024.0;

/**
 * The architecture of a named model. The bounds above keep every count within 64 bits.
 */
struct Preset
{
    const char* name;                                 //!< Name accepted by ApplyPreset.
    uint32_t layers;                                  //!< Layers.
    uint32_t hiddenSize;                              //!< HiddenSize.
    uint32_t heads;                                   //!< Heads.
    uint32_t kvHeads;                                 //!< KvHeads.
    uint32_t ffnHiddenSize;                           //!< FfnHiddenSize.
    bool gatedFfn;                                    //!< GatedFfn.
    uint32_t vocabularySize;                          //!< VocabularySize.
    bool tiedEmbeddings;                              //!< TiedEmbeddings.
    uint32_t sequenceLength;                          //!< SequenceLength.
    TransformerSpec::PositionEmbeddingKind positions; //!< PositionEmbedding.
    TransformerSpec::NormKind norm;                   //!< Norm.
    bool linearBias;                                  //!< LinearBias.
    uint32_t experts;                                 //!< Experts.
    uint32_t topK;                                    //!< TopK.
};

/// The presets, from the published architectures (model cards and papers).
const Preset PRESETS[] = {
    // GPT-2 small (Radford et al. 2019; Hugging Face "gpt2").
    {"gpt2-small",
     12,
     768,
     12,
     12,
     3072,
     false,
     50257,
     true,
     1024,
     TransformerSpec::LEARNED,
     TransformerSpec::LAYER_NORM,
     true,
     0,
     1},
    // GPT-3 175B (Brown et al. 2020, table 2.1).
    {"gpt3-175b",
     96,
     12288,
     96,
     96,
     49152,
     false,
     50257,
     true,
     2048,
     TransformerSpec::LEARNED,
     TransformerSpec::LAYER_NORM,
     true,
     0,
     1},
    // Llama 3 8B, 70B and 405B (Llama 3 herd of models, table 3).
    {"llama3-8b",
     32,
     4096,
     32,
     8,
     14336,
     true,
     128256,
     false,
     8192,
     TransformerSpec::ROPE,
     TransformerSpec::RMS_NORM,
     false,
     0,
     1},
    {"llama3-70b",
     80,
     8192,
     64,
     8,
     28672,
     true,
     128256,
     false,
     8192,
     TransformerSpec::ROPE,
     TransformerSpec::RMS_NORM,
     false,
     0,
     1},
    {"llama3-405b",
     126,
     16384,
     128,
     8,
     53248,
     true,
     128256,
     false,
     8192,
     TransformerSpec::ROPE,
     TransformerSpec::RMS_NORM,
     false,
     0,
     1},
    // Mixtral 8x7B (Jiang et al. 2024; Hugging Face "Mixtral-8x7B-v0.1").
    {"mixtral-8x7b",
     32,
     4096,
     32,
     8,
     14336,
     true,
     32000,
     false,
     32768,
     TransformerSpec::ROPE,
     TransformerSpec::RMS_NORM,
     false,
     8,
     2},
};

} // namespace

TypeId
TransformerSpec::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TransformerSpec")
            .SetParent<Object>()
            .SetGroupName("LlmFabric")
            .AddConstructor<TransformerSpec>()
            .AddAttribute("Layers",
                          "Number of transformer layers.",
                          UintegerValue(12),
                          MakeUintegerAccessor(&TransformerSpec::m_layers),
                          MakeUintegerChecker<uint32_t>(1, MAX_LAYERS))
            .AddAttribute("HiddenSize",
                          "Hidden (model) dimension.",
                          UintegerValue(768),
                          MakeUintegerAccessor(&TransformerSpec::m_hiddenSize),
                          MakeUintegerChecker<uint32_t>(1, MAX_HIDDEN))
            .AddAttribute("Heads",
                          "Number of attention (query) heads; must divide HiddenSize.",
                          UintegerValue(12),
                          MakeUintegerAccessor(&TransformerSpec::m_heads),
                          MakeUintegerChecker<uint32_t>(1, MAX_HIDDEN))
            .AddAttribute("KvHeads",
                          "Number of key/value heads (grouped-query attention); must divide "
                          "Heads. Equal to Heads is multi-head attention.",
                          UintegerValue(12),
                          MakeUintegerAccessor(&TransformerSpec::m_kvHeads),
                          MakeUintegerChecker<uint32_t>(1, MAX_HIDDEN))
            .AddAttribute("FfnHiddenSize",
                          "Inner dimension of the feed-forward network (of one expert).",
                          UintegerValue(3072),
                          MakeUintegerAccessor(&TransformerSpec::m_ffnHiddenSize),
                          MakeUintegerChecker<uint32_t>(1, MAX_FFN))
            .AddAttribute("GatedFfn",
                          "Gated FFN (SwiGLU: gate, up and down matrices); else two matrices.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&TransformerSpec::m_gatedFfn),
                          MakeBooleanChecker())
            .AddAttribute("VocabularySize",
                          "Number of tokens in the vocabulary.",
                          UintegerValue(50257),
                          MakeUintegerAccessor(&TransformerSpec::m_vocabularySize),
                          MakeUintegerChecker<uint32_t>(1, MAX_TOKENS))
            .AddAttribute("TiedEmbeddings",
                          "The output head shares the token embedding's weights; else it is "
                          "another VocabularySize x HiddenSize matrix.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TransformerSpec::m_tiedEmbeddings),
                          MakeBooleanChecker())
            .AddAttribute("SequenceLength",
                          "Sequence length (context window), in tokens.",
                          UintegerValue(1024),
                          MakeUintegerAccessor(&TransformerSpec::m_sequenceLength),
                          MakeUintegerChecker<uint32_t>(1, MAX_TOKENS))
            .AddAttribute(
                "PositionEmbedding",
                "Position encoding: a learned absolute table of SequenceLength x "
                "HiddenSize, or rotary embedding without parameters.",
                EnumValue(TransformerSpec::LEARNED),
                LLM_FABRIC_ENUM_ACCESSOR(TransformerSpec::PositionEmbeddingKind,
                                         &TransformerSpec::m_positionEmbedding),
                MakeEnumChecker(TransformerSpec::LEARNED, "Learned", TransformerSpec::ROPE, "RoPE"))
            .AddAttribute(
                "Norm",
                "Normalization: LayerNorm (weight and bias) or RMSNorm (weight only).",
                EnumValue(TransformerSpec::LAYER_NORM),
                LLM_FABRIC_ENUM_ACCESSOR(TransformerSpec::NormKind, &TransformerSpec::m_norm),
                MakeEnumChecker(TransformerSpec::LAYER_NORM,
                                "LayerNorm",
                                TransformerSpec::RMS_NORM,
                                "RMSNorm"))
            .AddAttribute("LinearBias",
                          "Biases on the QKV, attention output and FFN linears (GPT-2/3); "
                          "Llama and Mixtral have none.",
                          BooleanValue(true),
                          MakeBooleanAccessor(&TransformerSpec::m_linearBias),
                          MakeBooleanChecker())
            .AddAttribute("Experts",
                          "Number of routed experts in a mixture-of-experts layer; 0 or 1 is a "
                          "dense model.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TransformerSpec::m_experts),
                          MakeUintegerChecker<uint32_t>(0, MAX_EXPERTS))
            .AddAttribute("TopK",
                          "Number of routed experts each token uses (ignored if dense).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TransformerSpec::m_topK),
                          MakeUintegerChecker<uint32_t>(1, MAX_EXPERTS))
            .AddAttribute("CapacityFactor",
                          "Expert capacity factor: an expert takes at most CapacityFactor x "
                          "tokens x TopK / Experts tokens of a batch (ignored if dense).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&TransformerSpec::m_capacityFactor),
                          MakeDoubleChecker<double>(0.0, MAX_CAPACITY_FACTOR))
            .AddAttribute("MoeLayerInterval",
                          "Layer l (from 0) is a mixture-of-experts layer if l is a multiple of "
                          "this interval; 1 makes every layer one.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&TransformerSpec::m_moeLayerInterval),
                          MakeUintegerChecker<uint32_t>(1, MAX_LAYERS))
            .AddAttribute("SharedExperts",
                          "Number of shared experts, which every token uses, per "
                          "mixture-of-experts layer.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&TransformerSpec::m_sharedExperts),
                          MakeUintegerChecker<uint32_t>(0, MAX_SHARED_EXPERTS));
    return tid;
}

TransformerSpec::TransformerSpec()
    : m_layers(12),
      m_hiddenSize(768),
      m_heads(12),
      m_kvHeads(12),
      m_ffnHiddenSize(3072),
      m_gatedFfn(false),
      m_vocabularySize(50257),
      m_tiedEmbeddings(true),
      m_sequenceLength(1024),
      m_positionEmbedding(LEARNED),
      m_norm(LAYER_NORM),
      m_linearBias(true),
      m_experts(0),
      m_topK(1),
      m_capacityFactor(1.0),
      m_moeLayerInterval(1),
      m_sharedExperts(0)
{
    NS_LOG_FUNCTION(this);
}

TransformerSpec::~TransformerSpec()
{
    NS_LOG_FUNCTION(this);
}

void
TransformerSpec::DoInitialize()
{
    NS_LOG_FUNCTION(this);
    std::string problem = Check();
    NS_ABORT_MSG_IF(!problem.empty(), "TransformerSpec: " << problem);
    Object::DoInitialize();
}

std::vector<std::string>
TransformerSpec::GetPresetNames()
{
    return PresetTable::GetNames(PRESETS);
}

std::string
TransformerSpec::ApplyPreset(const std::string& name)
{
    NS_LOG_FUNCTION(this << name);
    std::string problem;
    const Preset* preset = PresetTable::Find(PRESETS, name, problem);
    if (preset == nullptr)
    {
        return problem;
    }
    m_layers = preset->layers;
    m_hiddenSize = preset->hiddenSize;
    m_heads = preset->heads;
    m_kvHeads = preset->kvHeads;
    m_ffnHiddenSize = preset->ffnHiddenSize;
    m_gatedFfn = preset->gatedFfn;
    m_vocabularySize = preset->vocabularySize;
    m_tiedEmbeddings = preset->tiedEmbeddings;
    m_sequenceLength = preset->sequenceLength;
    m_positionEmbedding = preset->positions;
    m_norm = preset->norm;
    m_linearBias = preset->linearBias;
    m_experts = preset->experts;
    m_topK = preset->topK;
    m_capacityFactor = 1.0;
    m_moeLayerInterval = 1;
    m_sharedExperts = 0;
    return "";
}

std::string
TransformerSpec::Check() const
{
    std::ostringstream problem;
    if (m_layers == 0 || m_hiddenSize == 0 || m_heads == 0 || m_kvHeads == 0 ||
        m_ffnHiddenSize == 0 || m_vocabularySize == 0 || m_sequenceLength == 0 ||
        m_moeLayerInterval == 0)
    {
        // Only reachable by bypassing the attribute checkers.
        return "Layers, HiddenSize, Heads, KvHeads, FfnHiddenSize, VocabularySize, "
               "SequenceLength and MoeLayerInterval must all be at least 1";
    }
    if (m_hiddenSize % m_heads != 0)
    {
        problem << "HiddenSize (" << m_hiddenSize << ") is not divisible by Heads (" << m_heads
                << ")";
    }
    else if (m_kvHeads > m_heads)
    {
        problem << "KvHeads (" << m_kvHeads << ") exceeds Heads (" << m_heads << ")";
    }
    else if (m_heads % m_kvHeads != 0)
    {
        problem << "Heads (" << m_heads << ") is not a multiple of KvHeads (" << m_kvHeads << ")";
    }
    else if (m_experts > 1 && m_topK > m_experts)
    {
        problem << "TopK (" << m_topK << ") exceeds Experts (" << m_experts << ")";
    }
    else if (m_experts > 1 && !(m_capacityFactor > 0.0))
    {
        problem << "CapacityFactor (" << m_capacityFactor << ") must be positive with Experts ("
                << m_experts << ")";
    }
    else if (m_experts <= 1 && m_sharedExperts > 0)
    {
        problem << "SharedExperts (" << m_sharedExperts << ") needs Experts > 1, not Experts ("
                << m_experts << ")";
    }
    return problem.str();
}

bool
TransformerSpec::IsMoeLayer(uint32_t layer) const
{
    NS_ABORT_MSG_IF(layer >= m_layers,
                    "TransformerSpec: layer " << layer << " out of Layers (" << m_layers << ")");
    return m_experts > 1 && m_moeLayerInterval > 0 && layer % m_moeLayerInterval == 0;
}

uint32_t
TransformerSpec::GetMoeLayerCount() const
{
    uint32_t count = 0;
    for (uint32_t layer = 0; layer < m_layers; ++layer)
    {
        count += IsMoeLayer(layer) ? 1 : 0;
    }
    return count;
}

uint64_t
TransformerSpec::NormParameters() const
{
    uint64_t hidden = m_hiddenSize;
    return m_norm == LAYER_NORM ? 2 * hidden : hidden;
}

uint64_t
TransformerSpec::FfnParameters() const
{
    uint64_t hidden = m_hiddenSize;
    uint64_t ffn = m_ffnHiddenSize;
    uint64_t matrices = m_gatedFfn ? 3 : 2;
    uint64_t count = matrices * hidden * ffn;
    if (m_linearBias)
    {
        // Gate and up project to the FFN dimension, down back to the hidden dimension.
        count += (matrices - 1) * ffn + hidden;
    }
    return count;
}

uint64_t
TransformerSpec::CountLayer(uint32_t layer, bool active) const
{
    NS_ABORT_MSG_IF(layer >= m_layers,
                    "TransformerSpec: layer " << layer << " out of Layers (" << m_layers << ")");
    NS_ABORT_MSG_IF(m_heads == 0 || m_hiddenSize % m_heads != 0,
                    "TransformerSpec: HiddenSize ("
                        << m_hiddenSize << ") is not divisible by Heads (" << m_heads << ")");
    uint64_t hidden = m_hiddenSize;
    uint64_t kvSize = static_cast<uint64_t>(m_kvHeads) * (m_hiddenSize / m_heads);

    uint64_t count = 2 * NormParameters();

    // Q and O: hidden x hidden; K and V: hidden x kvSize.
    count += 2 * hidden * hidden + 2 * hidden * kvSize;
    if (m_linearBias)
    {
        count += 2 * hidden + 2 * kvSize;
    }

    if (IsMoeLayer(layer))
    {
        uint64_t routed = active ? m_topK : m_experts;
        count += (routed + m_sharedExperts) * FfnParameters();
        count += hidden * m_experts; // router, no bias
    }
    else
    {
        count += FfnParameters();
    }
    return count;
}

uint64_t
TransformerSpec::GetParametersPerLayer(uint32_t layer) const
{
    return CountLayer(layer, false);
}

uint64_t
TransformerSpec::GetEmbeddingParameterCount() const
{
    uint64_t hidden = m_hiddenSize;
    uint64_t count = static_cast<uint64_t>(m_vocabularySize) * hidden;
    if (m_positionEmbedding == LEARNED)
    {
        count += static_cast<uint64_t>(m_sequenceLength) * hidden;
    }
    return count;
}

uint64_t
TransformerSpec::CountParameters(bool active) const
{
    uint64_t count = GetEmbeddingParameterCount();
    for (uint32_t layer = 0; layer < m_layers; ++layer)
    {
        count += CountLayer(layer, active);
    }
    count += NormParameters(); // final norm
    if (!m_tiedEmbeddings)
    {
        count += static_cast<uint64_t>(m_vocabularySize) * m_hiddenSize;
    }
    return count;
}

uint64_t
TransformerSpec::GetParameterCount() const
{
    return CountParameters(false);
}

uint64_t
TransformerSpec::GetActiveParameterCount() const
{
    return CountParameters(true);
}

uint32_t
TransformerSpec::GetLayers() const
{
    return m_layers;
}

uint32_t
TransformerSpec::GetHiddenSize() const
{
    return m_hiddenSize;
}

uint32_t
TransformerSpec::GetHeads() const
{
    return m_heads;
}

uint32_t
TransformerSpec::GetKvHeads() const
{
    return m_kvHeads;
}

uint32_t
TransformerSpec::GetHeadSize() const
{
    return m_heads == 0 ? 0 : m_hiddenSize / m_heads;
}

uint32_t
TransformerSpec::GetFfnHiddenSize() const
{
    return m_ffnHiddenSize;
}

bool
TransformerSpec::GetGatedFfn() const
{
    return m_gatedFfn;
}

uint32_t
TransformerSpec::GetVocabularySize() const
{
    return m_vocabularySize;
}

bool
TransformerSpec::GetTiedEmbeddings() const
{
    return m_tiedEmbeddings;
}

uint32_t
TransformerSpec::GetSequenceLength() const
{
    return m_sequenceLength;
}

TransformerSpec::PositionEmbeddingKind
TransformerSpec::GetPositionEmbedding() const
{
    return m_positionEmbedding;
}

TransformerSpec::NormKind
TransformerSpec::GetNorm() const
{
    return m_norm;
}

bool
TransformerSpec::GetLinearBias() const
{
    return m_linearBias;
}

uint32_t
TransformerSpec::GetExperts() const
{
    return m_experts;
}

uint32_t
TransformerSpec::GetTopK() const
{
    return m_topK;
}

double
TransformerSpec::GetCapacityFactor() const
{
    return m_capacityFactor;
}

uint32_t
TransformerSpec::GetMoeLayerInterval() const
{
    return m_moeLayerInterval;
}

uint32_t
TransformerSpec::GetSharedExperts() const
{
    return m_sharedExperts;
}

void
TransformerSpec::SetPositionEmbedding(PositionEmbeddingKind kind)
{
    NS_LOG_FUNCTION(this << kind);
    m_positionEmbedding = kind;
}

void
TransformerSpec::SetNorm(NormKind kind)
{
    NS_LOG_FUNCTION(this << kind);
    m_norm = kind;
}

} // namespace ns3
