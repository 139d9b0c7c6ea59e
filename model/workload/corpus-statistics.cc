/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "corpus-statistics.h"

#include "bpe-tokenizer.h"

#include "ns3/log.h"

#include <fstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CorpusStatistics");

namespace
{

/// Size from which a piece of the corpus is tokenized, once a safe cut point is reached.
constexpr size_t PIECE_BYTES = 1 << 20;

/**
 * @param c a byte.
 * @return true if it is a printable ASCII character other than the space.
 */
bool
IsPrintableAscii(int c)
{
    return c >= 0x21 && c <= 0x7E;
}

} // namespace

CorpusStatistics::CorpusStatistics()
    : m_bytes(0),
      m_characters(0),
      m_words(0),
      m_lines(0),
      m_tokens(0),
      m_inWord(false),
      m_endsInNewline(false)
{
}

void
CorpusStatistics::CountText(const std::string& piece)
{
    m_bytes += piece.size();
    for (size_t pos = 0; pos < piece.size();)
    {
        uint32_t cp;
        pos += BpeTokenizer::ReadCodePoint(piece, pos, cp);
        ++m_characters;
        if (BpeTokenizer::IsWhitespace(cp))
        {
            m_inWord = false;
        }
        else if (!m_inWord)
        {
            m_inWord = true;
            ++m_words;
        }
        m_endsInNewline = cp == '\n';
        if (m_endsInNewline)
        {
            ++m_lines;
        }
    }
}

std::string
CorpusStatistics::Compute(const std::string& path,
                          const BpeTokenizer& tokenizer,
                          CorpusStatistics& out)
{
    NS_LOG_FUNCTION(path);
    std::ifstream in(path, std::ios::binary);
    if (!in)
    {
        return path + ": cannot read the file";
    }
    CorpusStatistics stats;
    std::string piece;
    std::string line;
    while (std::getline(in, line))
    {
        piece += line;
        if (!in.eof())
        {
            piece += '\n';
        }
        // Cut after "x\n" when a printable character follows: a pre-token always ends there.
        if (piece.size() >= PIECE_BYTES && piece.back() == '\n' && piece.size() >= 2 &&
            IsPrintableAscii(static_cast<unsigned char>(piece[piece.size() - 2])) &&
            IsPrintableAscii(in.peek()))
        {
            stats.CountText(piece);
            stats.m_tokens += tokenizer.Encode(piece).size();
            piece.clear();
        }
    }
    if (in.bad())
    {
        return path + ": read error";
    }
    stats.CountText(piece);
    stats.m_tokens += tokenizer.Encode(piece).size();
    if (stats.m_bytes > 0 && !stats.m_endsInNewline)
    {
        ++stats.m_lines;
    }
    out = stats;
    return "";
}

CorpusStatistics
CorpusStatistics::ComputeFromString(const std::string& text, const BpeTokenizer& tokenizer)
{
    NS_LOG_FUNCTION(text.size());
    CorpusStatistics stats;
    stats.CountText(text);
    stats.m_tokens = tokenizer.Encode(text).size();
    if (stats.m_bytes > 0 && !stats.m_endsInNewline)
    {
        ++stats.m_lines;
    }
    return stats;
}

uint64_t
CorpusStatistics::GetBytes() const
{
    return m_bytes;
}

uint64_t
CorpusStatistics::GetCharacters() const
{
    return m_characters;
}

uint64_t
CorpusStatistics::GetWords() const
{
    return m_words;
}

uint64_t
CorpusStatistics::GetLines() const
{
    return m_lines;
}

uint64_t
CorpusStatistics::GetTokens() const
{
    return m_tokens;
}

uint64_t
CorpusStatistics::GetSequences(uint32_t sequenceLength) const
{
    if (sequenceLength == 0)
    {
        return 0;
    }
    return (m_tokens + sequenceLength - 1) / sequenceLength;
}

uint64_t
CorpusStatistics::GetIterationsPerEpoch(uint32_t sequenceLength,
                                        uint32_t globalBatchSequences) const
{
    if (globalBatchSequences == 0)
    {
        return 0;
    }
    uint64_t sequences = GetSequences(sequenceLength);
    return (sequences + globalBatchSequences - 1) / globalBatchSequences;
}

} // namespace ns3
