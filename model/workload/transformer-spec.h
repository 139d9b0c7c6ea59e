/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRANSFORMER_SPEC_H
#define TRANSFORMER_SPEC_H

#include "ns3/object.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * The architecture of a decoder-only transformer language model, and the number of parameters it
 * implies.
 *
 * Every field is an attribute. The parameter count is derived from the architecture, counting:
 * - the token embedding (VocabularySize x HiddenSize) and, with LEARNED positions, the position
 *   embedding (SequenceLength x HiddenSize); RoPE has no parameters;
 * - per layer, two norms (before attention and before the FFN): LAYER_NORM has a weight and a
 *   bias of HiddenSize each, RMS_NORM a weight only;
 * - per layer, the attention projections: Q and O are HiddenSize x HiddenSize, K and V are
 *   HiddenSize x (KvHeads * HiddenSize / Heads) (grouped-query attention), with biases of the
 *   output sizes if LinearBias is set;
 * - per layer, the FFN: three HiddenSize x FfnHiddenSize matrices if GatedFfn (SwiGLU: gate, up,
 *   down), else two (up, down), with biases of the output sizes if LinearBias is set;
 * - in a mixture-of-experts layer, Experts + SharedExperts copies of that FFN and a router (gate)
 *   linear of HiddenSize x Experts without bias;
 * - the final norm and, unless TiedEmbeddings, an output head of VocabularySize x HiddenSize.
 *
 * Layer @c l (from 0) is a mixture-of-experts layer when Experts > 1 and
 * l % MoeLayerInterval == 0, as in Megatron-LM's --moe-layer-freq: with an interval of 1 every
 * layer is, with 2 the layers 0, 2, 4 and so on.
 *
 * The default values are those of GPT-2 small (preset "gpt2-small").
 */
class TransformerSpec : public Object
{
  public:
    /// How token positions are encoded.
    enum PositionEmbeddingKind
    {
        LEARNED, ///< A learned absolute position embedding table (GPT-2, GPT-3).
        ROPE     ///< Rotary position embedding, without parameters (Llama, Mixtral).
    };

    /// The normalization layers' kind.
    enum NormKind
    {
        LAYER_NORM, ///< LayerNorm, with a weight and a bias per hidden unit.
        RMS_NORM    ///< RMSNorm, with a weight per hidden unit only.
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /** Create a specification with the default (GPT-2 small) architecture. */
    TransformerSpec();
    ~TransformerSpec() override;

    /**
     * Set every attribute to the architecture of a named model.
     * @param name a name from GetPresetNames().
     * @return an empty string, or "unknown preset 'X' (known: ...)" and nothing is changed.
     */
    std::string ApplyPreset(const std::string& name);

    /**
     * @return the names ApplyPreset accepts, in a fixed order.
     */
    static std::vector<std::string> GetPresetNames();

    /**
     * Check that the attributes describe a consistent model.
     * @return an empty string, or a description of the first problem found, naming the attributes.
     */
    std::string Check() const;

    /**
     * @return the total number of parameters: embeddings, all layers, final norm and output head.
     */
    uint64_t GetParameterCount() const;

    /**
     * @return the parameters of the token embedding and, with LEARNED positions, of the position
     * embedding (the output head is not included, even when tied).
     */
    uint64_t GetEmbeddingParameterCount() const;

    /**
     * @param layer a layer index, less than the number of layers.
     * @return the parameters of that layer: its two norms, attention and FFN (all experts, shared
     * experts and router if it is a mixture-of-experts layer).
     */
    uint64_t GetParametersPerLayer(uint32_t layer) const;

    /**
     * @return the parameters used to process one token: as GetParameterCount(), but counting in
     * each mixture-of-experts layer only TopK routed experts (plus the shared experts and the
     * router).
     */
    uint64_t GetActiveParameterCount() const;

    /**
     * @param layer a layer index, less than the number of layers.
     * @return true if that layer is a mixture-of-experts layer.
     */
    bool IsMoeLayer(uint32_t layer) const;

    /**
     * @return the number of mixture-of-experts layers (0 for a dense model).
     */
    uint32_t GetMoeLayerCount() const;

    /** @return the number of transformer layers. */
    uint32_t GetLayers() const;
    /** @return the hidden (model) dimension. */
    uint32_t GetHiddenSize() const;
    /** @return the number of attention (query) heads. */
    uint32_t GetHeads() const;
    /** @return the number of key/value heads. */
    uint32_t GetKvHeads() const;
    /** @return the dimension of one attention head, HiddenSize / Heads. */
    uint32_t GetHeadSize() const;
    /** @return the inner dimension of the FFN (of one expert). */
    uint32_t GetFfnHiddenSize() const;
    /** @return true if the FFN is gated (SwiGLU, three matrices). */
    bool GetGatedFfn() const;
    /** @return the vocabulary size. */
    uint32_t GetVocabularySize() const;
    /** @return true if the output head shares the token embedding's weights. */
    bool GetTiedEmbeddings() const;
    /** @return the sequence length (context window), in tokens. */
    uint32_t GetSequenceLength() const;
    /** @return how positions are encoded. */
    PositionEmbeddingKind GetPositionEmbedding() const;
    /** @return the normalization layers' kind. */
    NormKind GetNorm() const;
    /** @return true if the attention and FFN linears have biases. */
    bool GetLinearBias() const;
    /** @return the number of routed experts (0 or 1: dense). */
    uint32_t GetExperts() const;
    /** @return the number of routed experts each token uses. */
    uint32_t GetTopK() const;
    /** @return the expert capacity factor. */
    double GetCapacityFactor() const;
    /** @return the interval between mixture-of-experts layers. */
    uint32_t GetMoeLayerInterval() const;
    /** @return the number of shared (always active) experts per mixture-of-experts layer. */
    uint32_t GetSharedExperts() const;

    /**
     * @param kind how positions are encoded.
     */
    void SetPositionEmbedding(PositionEmbeddingKind kind);
    /**
     * @param kind the normalization layers' kind.
     */
    void SetNorm(NormKind kind);

  protected:
    void DoInitialize() override;

  private:
    /**
     * @param active count only TopK routed experts in mixture-of-experts layers.
     * @return the total count, as GetParameterCount() or GetActiveParameterCount().
     */
    uint64_t CountParameters(bool active) const;

    /**
     * @param layer a layer index, less than the number of layers.
     * @param active count only TopK routed experts if it is a mixture-of-experts layer.
     * @return the parameters of that layer.
     */
    uint64_t CountLayer(uint32_t layer, bool active) const;

    /** @return the parameters of one norm. */
    uint64_t NormParameters() const;

    /** @return the parameters of one dense FFN (or one expert). */
    uint64_t FfnParameters() const;

    uint32_t m_layers;                         //!< Number of transformer layers.
    uint32_t m_hiddenSize;                     //!< Hidden (model) dimension.
    uint32_t m_heads;                          //!< Attention (query) heads.
    uint32_t m_kvHeads;                        //!< Key/value heads.
    uint32_t m_ffnHiddenSize;                  //!< FFN inner dimension.
    bool m_gatedFfn;                           //!< Gated (SwiGLU) FFN.
    uint32_t m_vocabularySize;                 //!< Vocabulary size.
    bool m_tiedEmbeddings;                     //!< Output head tied to the token embedding.
    uint32_t m_sequenceLength;                 //!< Sequence length, in tokens.
    PositionEmbeddingKind m_positionEmbedding; //!< Position encoding.
    NormKind m_norm;                           //!< Normalization kind.
    bool m_linearBias;                         //!< Biases on attention and FFN linears.
    uint32_t m_experts;                        //!< Routed experts (0 or 1: dense).
    uint32_t m_topK;                           //!< Routed experts per token.
    double m_capacityFactor;                   //!< Expert capacity factor.
    uint32_t m_moeLayerInterval;               //!< Every Nth layer is MoE.
    uint32_t m_sharedExperts;                  //!< Shared experts per MoE layer.
};

} // namespace ns3

#endif /* TRANSFORMER_SPEC_H */
