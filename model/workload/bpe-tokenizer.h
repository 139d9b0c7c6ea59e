/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BPE_TOKENIZER_H
#define BPE_TOKENIZER_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * A byte-level byte-pair-encoding (BPE) tokenizer, as GPT-2's, loaded from a vocabulary and a
 * merge list, to count the tokens of a training corpus.
 *
 * The files are GPT-2's: @c encoder.json (also called @c vocab.json), a JSON object from token
 * strings to ids, and @c vocab.bpe (also called @c merges.txt), one merge a line ("first second",
 * the lowest rank first) after a first line starting with '#' ("#version: 0.2").
 *
 * Encoding follows GPT-2's algorithm:
 * 1. the text is split into pre-tokens by the pattern
 *    <tt>'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+</tt>,
 *    matched by hand over the UTF-8 code points: \\p{L} and \\p{N} are the Unicode general
 *    categories L and N (Unicode 14.0 tables built in), \\s the Unicode White_Space property; bytes
 *    that are not valid UTF-8 count as single code points of neither class;
 * 2. each byte of a pre-token becomes one symbol, the printable code point GPT-2 maps it to
 *    (bytes 33-126, 161-172 and 174-255 map to themselves, the other 68 bytes to 256, 257, ... in
 *    increasing byte order);
 * 3. while some adjacent pair of symbols is in the merge list, every occurrence (from left to
 *    right, not overlapping) of the pair of lowest rank is replaced by its concatenation;
 * 4. each resulting symbol is replaced by its id.
 *
 * Load checks that every merge's result is in the vocabulary, so step 4 always succeeds for
 * symbols made by merges. A single byte whose symbol is not in the vocabulary (only with
 * vocabularies that lack some of the 256 byte tokens) is skipped and logged: Decode(Encode(s))
 * equals @c s for every @c s exactly when the vocabulary has all 256 byte tokens.
 *
 * Results are cached per pre-token (a corpus repeats its words), which makes Encode about as fast
 * as reading the text; the cache is emptied when it reaches MAX_CACHE_ENTRIES pre-tokens.
 */
class BpeTokenizer
{
  public:
    /// Largest number of pre-tokens whose encoding is kept in the cache.
    static constexpr size_t MAX_CACHE_ENTRIES = 1u << 20;

    /** Create a tokenizer with an empty vocabulary (Encode then returns nothing). */
    BpeTokenizer();

    /**
     * Load a vocabulary and a merge list from files. On error nothing is changed.
     * @param encoderJsonPath the vocabulary, GPT-2's encoder.json (or vocab.json).
     * @param mergesPath the merge list, GPT-2's vocab.bpe (or merges.txt).
     * @return an empty string, or "<file>: <reason>" naming the file (and the line and column of
     * the problem when there is one).
     */
    std::string Load(const std::string& encoderJsonPath, const std::string& mergesPath);

    /**
     * Load the files of a folder: encoder.json and vocab.bpe if the folder has encoder.json, else
     * vocab.json and merges.txt.
     * @param directory the folder.
     * @return an empty string, or "<file>: <reason>" as for Load.
     */
    std::string LoadDirectory(const std::string& directory);

    /**
     * Load a vocabulary and a merge list given as text. On error nothing is changed.
     * @param encoderJson the text of an encoder.json file.
     * @param merges the text of a vocab.bpe file.
     * @return an empty string, or "encoder.json: <reason>" or "vocab.bpe: <reason>".
     */
    std::string LoadFromStrings(const std::string& encoderJson, const std::string& merges);

    /**
     * @param utf8Text some text, normally UTF-8 (other bytes are encoded too, byte by byte).
     * @return its token ids.
     */
    std::vector<uint32_t> Encode(const std::string& utf8Text) const;

    /**
     * @param ids token ids; ids not in the vocabulary are skipped (and logged).
     * @return the bytes those tokens stand for.
     */
    std::string Decode(const std::vector<uint32_t>& ids) const;

    /**
     * @return the number of tokens in the vocabulary (50,257 for GPT-2).
     */
    size_t GetVocabularySize() const;

    /**
     * @return the number of merges in the merge list (50,000 for GPT-2).
     */
    size_t GetMergeCount() const;

    /**
     * @param text some text.
     * @return the pre-tokens the text is split into (step 1 above), which concatenate to it.
     */
    static std::vector<std::string> PreTokenize(const std::string& text);

    /**
     * Read the code point starting at a byte of a UTF-8 text.
     * @param text the text.
     * @param pos the byte index, less than the text's size.
     * @param[out] codePoint the code point, or 0xFFFD if the bytes at @p pos are not a valid UTF-8
     * sequence (an overlong form, a surrogate, a value above 0x10FFFF, a stray or missing
     * continuation byte).
     * @return the number of bytes read: the sequence's length, or 1 if it is not valid.
     */
    static size_t ReadCodePoint(const std::string& text, size_t pos, uint32_t& codePoint);

    /**
     * @param codePoint a code point.
     * @return true if it has the Unicode White_Space property.
     */
    static bool IsWhitespace(uint32_t codePoint);

    /**
     * @param codePoint a code point.
     * @return true if its general category is a letter (L).
     */
    static bool IsLetter(uint32_t codePoint);

    /**
     * @param codePoint a code point.
     * @return true if its general category is a number (N: Nd, Nl or No).
     */
    static bool IsNumber(uint32_t codePoint);

  private:
    /**
     * Encode one pre-token (steps 2 to 4), using and filling the cache.
     * @param preToken the pre-token's bytes.
     * @param[in,out] ids where its token ids are appended.
     */
    void EncodePreToken(const std::string& preToken, std::vector<uint32_t>& ids) const;

    /// Token string (UTF-8 of the byte symbols) to id.
    std::unordered_map<std::string, uint32_t> m_encoder;
    /// Id to token string.
    std::unordered_map<uint32_t, std::string> m_decoder;
    /// Merge "first second" (the two symbols separated by a space) to rank.
    std::unordered_map<std::string, uint32_t> m_ranks;
    /// The UTF-8 of the symbol each byte maps to.
    std::array<std::string, 256> m_byteSymbols;
    /// The byte each symbol code point (below 512) maps back to, or -1.
    std::array<int16_t, 512> m_symbolBytes;
    /// Cache of pre-token to ids.
    mutable std::unordered_map<std::string, std::vector<uint32_t>> m_cache;
};

} // namespace ns3

#endif /* BPE_TOKENIZER_H */
