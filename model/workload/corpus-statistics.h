/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CORPUS_STATISTICS_H
#define CORPUS_STATISTICS_H

#include <cstdint>
#include <string>

namespace ns3
{

class BpeTokenizer;

/**
 * @ingroup llm-fabric
 * The size of a text training corpus, in bytes, characters, words, lines and tokens, and the
 * number of training sequences and iterations it makes.
 *
 * The counts are defined as follows:
 * - bytes: the file's size;
 * - characters: UTF-8 code points; a byte that is not part of a valid UTF-8 sequence counts as
 *   one character;
 * - words: maximal runs of characters that are not white space (Unicode White_Space, as
 *   BpeTokenizer::IsWhitespace), as Python's str.split() or wc -w on ASCII text;
 * - lines: newline characters, plus one if the text is not empty and does not end with a newline
 *   (a final line without newline counts, unlike wc -l);
 * - tokens: the number of ids BpeTokenizer::Encode gives for the whole text. The file is read in
 *   pieces of about a megabyte, cut only after a newline that is preceded and followed by printable
 *   ASCII characters, where GPT-2's pre-tokenization always ends a pre-token: the count is the
 *   same as for the text in one piece.
 */
class CorpusStatistics
{
  public:
    /** Create statistics of an empty corpus. */
    CorpusStatistics();

    /**
     * Measure a corpus file.
     * @param path the file (UTF-8 text).
     * @param tokenizer the tokenizer whose tokens are counted.
     * @param[out] out the statistics; unchanged on error.
     * @return an empty string, or "<path>: <reason>".
     */
    static std::string Compute(const std::string& path,
                               const BpeTokenizer& tokenizer,
                               CorpusStatistics& out);

    /**
     * Measure a text held in memory.
     * @param text the text.
     * @param tokenizer the tokenizer whose tokens are counted.
     * @return its statistics.
     */
    static CorpusStatistics ComputeFromString(const std::string& text,
                                              const BpeTokenizer& tokenizer);

    /** @return the number of bytes. */
    uint64_t GetBytes() const;
    /** @return the number of characters (UTF-8 code points). */
    uint64_t GetCharacters() const;
    /** @return the number of words (runs of non-white-space characters). */
    uint64_t GetWords() const;
    /** @return the number of lines. */
    uint64_t GetLines() const;
    /** @return the number of tokens. */
    uint64_t GetTokens() const;

    /**
     * The number of training sequences the corpus fills, packing the tokens end to end (as
     * Megatron-LM and nanoGPT do, without document boundaries). It is rounded up: a last, partial
     * sequence counts as one (it is padded, or completed with the start of the next epoch).
     * @param sequenceLength tokens per sequence; 0 gives 0.
     * @return ceil(tokens / sequenceLength).
     */
    uint64_t GetSequences(uint32_t sequenceLength) const;

    /**
     * The number of optimizer iterations (steps) of one epoch. It is rounded up: a last, smaller
     * batch is still a step with the same collective communication (its gradients have the same
     * size whatever the batch), so for network traffic it counts as a full iteration.
     * @param sequenceLength tokens per sequence; 0 gives 0.
     * @param globalBatchSequences sequences per global batch (over all data-parallel ranks); 0
     * gives 0.
     * @return ceil(GetSequences(sequenceLength) / globalBatchSequences).
     */
    uint64_t GetIterationsPerEpoch(uint32_t sequenceLength, uint32_t globalBatchSequences) const;

  private:
    /**
     * Add the bytes, characters, words and lines of a piece of text.
     * @param piece the piece; pieces are cut only after a newline.
     */
    void CountText(const std::string& piece);

    uint64_t m_bytes;      //!< Bytes.
    uint64_t m_characters; //!< Characters.
    uint64_t m_words;      //!< Words.
    uint64_t m_lines;      //!< Newlines so far (a final line without newline is added at the end).
    uint64_t m_tokens;     //!< Tokens.
    bool m_inWord;         //!< Whether the last character counted was part of a word.
    bool m_endsInNewline;  //!< Whether the last character counted was a newline.
};

} // namespace ns3

#endif /* CORPUS_STATISTICS_H */
