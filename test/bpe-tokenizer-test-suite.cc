/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/bpe-tokenizer.h"
#include "ns3/corpus-statistics.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * Tests of BpeTokenizer and CorpusStatistics: a tiny vocabulary whose encodings are derived by
 * hand, round trips, error messages, and GPT-2's real files (from the shared data folder) against
 * ids looked up by hand in encoder.json and against the npm package gpt-3-encoder 1.1.4, an
 * independent implementation, run once as recorded in the comments:
 *
 *     mkdir -p /tmp/enc && cd /tmp/enc && npm init -y && npm install gpt-3-encoder@1.1.4
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * The tiny vocabulary. Byte symbols: 'a', 'b', 'c' are themselves, the space is U+0120 'Ġ'
 * (bytes 0-32 map to 256-288 in order, so byte 32 to 288 = 0x120). Written with escapes to
 * exercise the JSON parser: \u0061 is 'a', \/ is '/'.
 */
const char* const TINY_ENCODER = R"({"\u0061": 10, "b": 11, "c": 12, "\u0120": 13, "bc": 20,
  "ab": 21, "\u0120a": 22, "\u0120ab": 23, "aa": 24, "a\/b": 30})";

/**
 * The tiny merge list: ranks 0 to 4 in this order.
 */
const char* const TINY_MERGES = "#version: 0.2\n"
                                "b c\n"         // rank 0 -> "bc" 20
                                "a b\n"         // rank 1 -> "ab" 21
                                "\xC4\xA0 a\n"  // rank 2: "Ġ a" -> "Ġa" 22
                                "\xC4\xA0 ab\n" // rank 3: "Ġ ab" -> "Ġab" 23
                                "a a\n";        // rank 4 -> "aa" 24

/**
 * @param ids some token ids.
 * @return them as "[1, 2, 3]".
 */
std::string
Show(const std::vector<uint32_t>& ids)
{
    std::ostringstream oss;
    oss << "[";
    for (size_t i = 0; i < ids.size(); ++i)
    {
        oss << (i ? ", " : "") << ids[i];
    }
    oss << "]";
    return oss.str();
}

/**
 * @param b a byte.
 * @return the code point GPT-2 maps it to, written from the rule: bytes 33-126, 161-172 and
 * 174-255 are themselves; 0-32 are 256-288, 127-160 are 289-322 and 173 is 323.
 */
uint32_t
ByteSymbol(uint32_t b)
{
    if (b <= 32)
    {
        return 256 + b;
    }
    if (b >= 127 && b <= 160)
    {
        return 289 + (b - 127);
    }
    if (b == 173)
    {
        return 323;
    }
    return b;
}

/**
 * A vocabulary of the 256 byte tokens (id = byte), each written as a \\uXXXX escape, plus
 * "Ã¨" (the two symbols of "è", C3 A8) as id 256 and the emoji U+1F600 written as a surrogate
 * pair as id 257; and a merge list with the one merge "Ã ¨".
 * @param[out] merges the merge list.
 * @return the encoder.json text.
 */
std::string
ByteVocabulary(std::string& merges)
{
    std::ostringstream json;
    json << "{";
    for (uint32_t b = 0; b < 256; ++b)
    {
        char escape[8];
        std::snprintf(escape, sizeof(escape), "\\u%04x", ByteSymbol(b));
        json << "\"" << escape << "\": " << b << ",\n";
    }
    json << "\"\\u00c3\\u00a8\": 256, \"\\uD83D\\uDE00\": 257}";
    merges = "#version: 0.2\n\xC3\x83 \xC2\xA8\n";
    return json.str();
}

/**
 * A temporary folder, removed with its files when the object is destroyed.
 */
class TempDir
{
  public:
    /** Create the folder. */
    TempDir()
    {
        char dirTemplate[] = "/tmp/llm-fabric-bpe-XXXXXX";
        const char* made = mkdtemp(dirTemplate);
        m_path = made ? made : "";
    }

    /** Remove the folder and its files. */
    ~TempDir()
    {
        if (!m_path.empty())
        {
            int status;
            RunCommand("rm -rf '" + m_path + "'", status);
        }
    }

    /**
     * Write a file in the folder.
     * @param name the file name.
     * @param content its content.
     * @return its path.
     */
    std::string Write(const std::string& name, const std::string& content) const
    {
        std::string path = m_path + "/" + name;
        std::ofstream out(path, std::ios::binary);
        out << content;
        return path;
    }

    /** @return the folder's path, empty if it could not be made. */
    const std::string& GetPath() const
    {
        return m_path;
    }

  private:
    std::string m_path; //!< The folder.
};

/**
 * Load the GPT-2 files of the shared data folder.
 * @param[out] tokenizer the tokenizer to load.
 * @param[out] error a load error, if any.
 * @return false if the folder is absent (the caller skips).
 */
bool
LoadGpt2(BpeTokenizer& tokenizer, std::string& error)
{
    std::string data = GetSharedDataDir();
    if (data.empty())
    {
        return false;
    }
    struct stat info;
    if (stat((data + "/gpt2-bpe").c_str(), &info) != 0)
    {
        return false;
    }
    error = tokenizer.Load(data + "/gpt2-bpe/encoder.json", data + "/gpt2-bpe/vocab.bpe");
    return true;
}

/// A text and the token ids it must encode to, as Show writes them.
struct Encoding
{
    const char* text; //!< the text
    const char* ids;  //!< its ids
    const char* why;  //!< what the case checks
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The tiny vocabulary's encodings, derived by hand from its merge list.
 */
class BpeTokenizerTinyTestCase : public TestCase
{
  public:
    /** Create the test case. */
    BpeTokenizerTinyTestCase()
        : TestCase("Tiny vocabulary: hand-derived encodings and merge order")
    {
    }

  private:
    void DoRun() override
    {
        BpeTokenizer tok;
        NS_TEST_ASSERT_MSG_EQ(tok.LoadFromStrings(TINY_ENCODER, TINY_MERGES), "", "tiny load");
        NS_TEST_ASSERT_MSG_EQ(tok.GetVocabularySize(), 10u, "ten tokens");
        NS_TEST_ASSERT_MSG_EQ(tok.GetMergeCount(), 5u, "five merges");

        const Encoding encodings[] = {
            // "ab": a b, pair (a,b) rank 1 -> [ab] = [21].
            {"ab", "[21]", "ab"},
            // "abc": pairs (a,b) rank 1 and (b,c) rank 0: the lowest rank wins -> a bc; (a,bc)
            // is no merge -> [a, bc] = [10, 20] (not [ab, c]).
            {"abc", "[10, 20]", "abc"},
            // "cab": c a b -> (a,b) rank 1 -> c ab = [12, 21].
            {"cab", "[12, 21]", "cab"},
            // " ab" is one pre-token: Ġ a b; (Ġ,a) rank 2, (a,b) rank 1 -> Ġ ab; (Ġ,ab) rank 3
            // -> Ġab = [23].
            {" ab", "[23]", "space-prefixed ab"},
            // " a": Ġ a -> Ġa = [22].
            {" a", "[22]", "space-prefixed a"},
            // "aaa": (a,a) rank 4, merged from the left without overlap -> aa a = [24, 10].
            {"aaa", "[24, 10]", "aaa"},
            // "abc abc": pre-tokens "abc" -> [10, 20] and " abc": Ġ a b c; (b,c) rank 0 first
            // -> Ġ a bc; (Ġ,a) rank 2 -> Ġa bc = [22, 20].
            {"abc abc", "[10, 20, 22, 20]", "abc abc"},
            // Again, now from the cache.
            {"abc abc", "[10, 20, 22, 20]", "cached"},
            // "a  b" (two spaces): pre-tokens "a", " " (a space run followed by a letter leaves
            // its last space to the word), " b"; there is no merge "Ġ b" -> [a, Ġ, Ġ, b].
            {"a  b", "[10, 13, 13, 11]", "two spaces"},
            // 'd' has no token: skipped. "abd" -> ab d -> [21].
            {"abd", "[21]", "unknown byte skipped"},
            {"", "[]", "empty text"}};
        for (const Encoding& e : encodings)
        {
            NS_TEST_ASSERT_MSG_EQ(Show(tok.Encode(e.text)), e.ids, e.why);
        }
        // Decoding: Ġab + bc = " abbc"; "a\/b" (id 30) is "a/b"; id 99 is unknown, skipped.
        NS_TEST_ASSERT_MSG_EQ(tok.Decode({23, 20}), " abbc", "decode");
        NS_TEST_ASSERT_MSG_EQ(tok.Decode({30, 99}), "a/b", "escaped slash, unknown id");

        // The same vocabulary with the first two merges swapped: (a,b) is now rank 0, so "abc"
        // -> ab c = [21, 12].
        BpeTokenizer swapped;
        std::string merges = "#version: 0.2\na b\nb c\n";
        NS_TEST_ASSERT_MSG_EQ(swapped.LoadFromStrings(TINY_ENCODER, merges), "", "swapped load");
        NS_TEST_ASSERT_MSG_EQ(Show(swapped.Encode("abc")), "[21, 12]", "other merge order");

        // Without a version line and with CRLF line ends, the first line is a merge.
        BpeTokenizer noVersion;
        NS_TEST_ASSERT_MSG_EQ(noVersion.LoadFromStrings(TINY_ENCODER, "a b\r\nb c\r\n"),
                              "",
                              "no version line");
        NS_TEST_ASSERT_MSG_EQ(Show(noVersion.Encode("abc")), "[21, 12]", "no version line");
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-2's pre-tokenization pattern, matched by hand.
 */
class BpeTokenizerPreTokenizeTestCase : public TestCase
{
  public:
    /** Create the test case. */
    BpeTokenizerPreTokenizeTestCase()
        : TestCase("Pre-tokenization follows the GPT-2 pattern")
    {
    }

  private:
    /**
     * @param text a text.
     * @return its pre-tokens joined by '|'.
     */
    static std::string Split(const std::string& text)
    {
        std::string out;
        for (const std::string& p : BpeTokenizer::PreTokenize(text))
        {
            out += (out.empty() ? "" : "|") + p;
        }
        return out;
    }

    void DoRun() override
    {
        // Contractions are split off ('s|'t|'re|'ve|'m|'ll|'d), other apostrophes are
        // punctuation.
        NS_TEST_ASSERT_MSG_EQ(Split("I'm don't we're they'll"),
                              "I|'m| don|'t| we|'re| they|'ll",
                              "contractions");
        NS_TEST_ASSERT_MSG_EQ(Split("l'amor"), "l|'|amor", "Italian elision");
        // Letters (accented too), numbers and other characters form separate runs, each with
        // an optional leading space.
        NS_TEST_ASSERT_MSG_EQ(Split("Però 2026 città!? ok"), "Però| 2026| città|!?| ok", "classes");
        NS_TEST_ASSERT_MSG_EQ(Split("x² ½"), "x|²| ½", "superscript and fraction are numbers");
        // White space: a run followed by a non-space leaves its last character to the next
        // pre-token; a single newline before a word stands alone; a final run is whole.
        NS_TEST_ASSERT_MSG_EQ(Split("a   b"), "a|  | b", "space run");
        NS_TEST_ASSERT_MSG_EQ(Split("a\n\nb\n"), "a|\n|\n|b|\n", "newlines");
        NS_TEST_ASSERT_MSG_EQ(Split("a \n "), "a| \n ", "trailing run");
        // No-break space U+00A0 is white space, but only U+0020 prefixes a word.
        NS_TEST_ASSERT_MSG_EQ(Split("a\xC2\xA0"
                                    "b"),
                              "a|\xC2\xA0|b",
                              "no-break space");
        // Invalid UTF-8 bytes are "other" characters.
        NS_TEST_ASSERT_MSG_EQ(Split("a\xFF\xFE b"), "a|\xFF\xFE| b", "invalid bytes");
        // Emoji are "other" characters; CJK ideographs are letters.
        NS_TEST_ASSERT_MSG_EQ(Split("hi 😀😀 日本"), "hi| 😀😀| 日本", "emoji and CJK");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Decode(Encode(s)) == s with a vocabulary of all 256 byte tokens.
 */
class BpeTokenizerRoundTripTestCase : public TestCase
{
  public:
    /** Create the test case. */
    BpeTokenizerRoundTripTestCase()
        : TestCase("Round trip with the 256 byte tokens")
    {
    }

  private:
    void DoRun() override
    {
        std::string merges;
        std::string json = ByteVocabulary(merges);
        BpeTokenizer tok;
        NS_TEST_ASSERT_MSG_EQ(tok.LoadFromStrings(json, merges), "", "byte vocabulary");
        NS_TEST_ASSERT_MSG_EQ(tok.GetVocabularySize(), 258u, "256 bytes and two more");

        // Each byte of an ASCII text is its own token, its id its value.
        NS_TEST_ASSERT_MSG_EQ(Show(tok.Encode("Hi \n")), "[72, 105, 32, 10]", "byte ids");
        // "è" is C3 A8: symbols Ã ¨, merged (rank 0) into id 256.
        NS_TEST_ASSERT_MSG_EQ(Show(tok.Encode("è")), "[256]", "merged è");
        // The surrogate-pair key decodes to the emoji's own UTF-8 (not byte symbols).
        NS_TEST_ASSERT_MSG_EQ(tok.Decode({257}), "😀", "surrogate pair");

        std::string all;
        for (int b = 0; b < 256; ++b)
        {
            all += static_cast<char>(b);
        }
        const std::vector<std::string> texts = {
            "Hello, world! It's 2026.\n\tTabs  and   spaces ",
            "Nel mezzo del cammin di nostra vita\nmi ritrovai per una selva oscura,\n"
            "ché la diritta via era smarrita. Perché? Però: città, virtù, così, È.",
            "Emoji 😀👍🏽 🇮🇹 and CJK 日本語, Greek αβγ, ½ ² ①",
            all,
        };
        for (const std::string& text : texts)
        {
            NS_TEST_ASSERT_MSG_EQ(tok.Decode(tok.Encode(text)), text, "round trip");
        }
        // Every byte on its own, including those not valid as UTF-8.
        std::vector<uint32_t> ids = tok.Encode(all);
        NS_TEST_ASSERT_MSG_EQ(ids.size(), 256u, "one token per byte");
    }
};

/**
 * @ingroup llm-fabric-tests
 * Malformed or missing files give messages naming the file, and leave the tokenizer unchanged.
 */
class BpeTokenizerErrorsTestCase : public TestCase
{
  public:
    /** Create the test case. */
    BpeTokenizerErrorsTestCase()
        : TestCase("Malformed and missing files give messages")
    {
    }

  private:
    /**
     * Check that loading fails with a message starting with a prefix and containing a text.
     * @param json the vocabulary.
     * @param merges the merge list.
     * @param prefix the expected start of the message.
     * @param part a text the message must contain.
     */
    void Expect(const std::string& json,
                const std::string& merges,
                const std::string& prefix,
                const std::string& part)
    {
        BpeTokenizer tok;
        std::string error = tok.LoadFromStrings(json, merges);
        NS_TEST_ASSERT_MSG_EQ(error.compare(0, prefix.size(), prefix), 0, "message: " << error);
        NS_TEST_ASSERT_MSG_NE(error.find(part), std::string::npos, "message: " << error);
        NS_TEST_ASSERT_MSG_EQ(tok.GetVocabularySize(), 0u, "nothing loaded");
    }

    void DoRun() override
    {
        const std::string ok = TINY_MERGES;
        Expect("", ok, "encoder.json: line 1 column 1", "expected '{'");
        Expect("[1, 2]", ok, "encoder.json: line 1 column 1", "expected '{'");
        Expect("{\"a\": 1,}", ok, "encoder.json: line 1 column 9", "expected a string");
        Expect("{\"a\" 1}", ok, "encoder.json:", "expected ':'");
        Expect("{\"a\": 1", ok, "encoder.json:", "expected ',' or '}'");
        Expect("{\"a\": -1}", ok, "encoder.json:", "non-negative integer");
        Expect("{\"a\": 1.5}", ok, "encoder.json:", "fraction");
        Expect("{\"a\": 99999999999}", ok, "encoder.json:", "larger");
        Expect("{\"a\": \"x\"}", ok, "encoder.json:", "non-negative integer");
        Expect("{\"a\n\": 1}", ok, "encoder.json:", "control character");
        Expect("{\"a\\q\": 1}", ok, "encoder.json:", "bad escape");
        Expect("{\"\\u12G4\": 1}", ok, "encoder.json:", "hexadecimal");
        Expect("{\"\\ud83d\": 1}", ok, "encoder.json:", "high surrogate");
        Expect("{\"\\ude00\": 1}", ok, "encoder.json:", "low surrogate");
        Expect("{\"a\": 1, \"a\": 2}", ok, "encoder.json:", "appears twice");
        Expect("{\"a\": 1, \"b\": 1}", ok, "encoder.json:", "id 1");
        Expect("{}", ok, "encoder.json:", "empty");
        Expect("{\"a\": 1}\n{", ok, "encoder.json: line 2 column 1", "after the object");
        Expect("{\"a\": 1, \"\": 2}", ok, "encoder.json:", "empty token");
        Expect(TINY_ENCODER, "#version: 0.2\na b c\n", "vocab.bpe: line 2:", "two symbols");
        Expect(TINY_ENCODER, "#version: 0.2\nb c\nc a\n", "vocab.bpe: line 3:", "\"ca\"");
        Expect(TINY_ENCODER, "#version: 0.2\na b\na b\n", "vocab.bpe: line 3:", "twice");

        // Files: the message names the file.
        TempDir dir;
        NS_TEST_ASSERT_MSG_EQ(dir.GetPath().empty(), false, "temporary folder");
        std::string encoder = dir.Write("vocab.json", TINY_ENCODER);
        std::string badEncoder = dir.Write("bad.json", "{\"a\": 1,}");
        std::string merges = dir.Write("merges.txt", TINY_MERGES);
        std::string badMerges = dir.Write("bad.txt", "#version: 0.2\na\n");
        std::string missing = dir.GetPath() + "/missing.json";
        BpeTokenizer tok;
        std::string error = tok.Load(missing, merges);
        NS_TEST_ASSERT_MSG_EQ(error, missing + ": cannot read the file", "missing vocabulary");
        error = tok.Load(encoder, dir.GetPath() + "/missing.txt");
        NS_TEST_ASSERT_MSG_EQ(error,
                              dir.GetPath() + "/missing.txt: cannot read the file",
                              "missing merges");
        error = tok.Load(badEncoder, merges);
        NS_TEST_ASSERT_MSG_EQ(error,
                              badEncoder + ": line 1 column 9: expected a string",
                              "malformed vocabulary file");
        error = tok.Load(encoder, badMerges);
        NS_TEST_ASSERT_MSG_EQ(error,
                              badMerges +
                                  ": line 2: expected two symbols separated by a space, found 1",
                              "malformed merges file");
        NS_TEST_ASSERT_MSG_EQ(tok.GetVocabularySize(), 0u, "nothing loaded");
        // A good load, then a bad one: the first vocabulary stays.
        NS_TEST_ASSERT_MSG_EQ(tok.LoadDirectory(dir.GetPath()), "", "vocab.json and merges.txt");
        NS_TEST_ASSERT_MSG_EQ(tok.Load(badEncoder, merges).empty(), false, "bad load");
        NS_TEST_ASSERT_MSG_EQ(Show(tok.Encode(" ab")), "[23]", "first vocabulary kept");
        error = tok.LoadDirectory(dir.GetPath() + "/none");
        NS_TEST_ASSERT_MSG_NE(error.find("/none/encoder.json: cannot read"),
                              std::string::npos,
                              "missing folder: " << error);

        CorpusStatistics stats;
        error = CorpusStatistics::Compute(missing, tok, stats);
        NS_TEST_ASSERT_MSG_EQ(error, missing + ": cannot read the file", "missing corpus");
    }
};

/**
 * @ingroup llm-fabric-tests
 * GPT-2's real files: ids looked up by hand in encoder.json, and ids from gpt-3-encoder.
 */
class BpeTokenizerGpt2TestCase : public TestCase
{
  public:
    /** Create the test case. */
    BpeTokenizerGpt2TestCase()
        : TestCase("GPT-2 vocabulary: known ids")
    {
    }

  private:
    void DoRun() override
    {
        BpeTokenizer tok;
        std::string error;
        if (!LoadGpt2(tok, error))
        {
            ReportSkip(GetName(), "no gpt2-bpe folder in the shared data folder");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(error, "", "GPT-2 files");
        NS_TEST_ASSERT_MSG_EQ(tok.GetVocabularySize(), 50257u, "GPT-2 vocabulary size");
        NS_TEST_ASSERT_MSG_EQ(tok.GetMergeCount(), 50000u, "GPT-2 merges (50,001 lines)");

        // Looked up in encoder.json:
        const Encoding encodings[] = {
            //   grep -o '"Hello": [0-9]*' encoder.json          -> "Hello": 15496
            //   grep -o '"\\u0120world": [0-9]*' encoder.json   -> "\u0120world": 995 (" world")
            {"Hello world", "[15496, 995]", "Hello world"},
            //   grep -o '"don": [0-9]*' encoder.json -> 9099; grep -o "\"'t\": [0-9]*" -> 470
            {"don't", "[9099, 470]", "contraction"},
            //   "a" 64, "b" 65, "\u010a" ("\n") 198: pre-tokens a | \n | \n | b
            {"a\n\nb", "[64, 198, 198, 65]", "newlines"},
            //   "\u0120" (" ") 220, "\u0120b" (" b") 275: pre-tokens a | " " | " b"
            {"a  b", "[64, 220, 275]", "two spaces"}};
        for (const Encoding& e : encodings)
        {
            NS_TEST_ASSERT_MSG_EQ(Show(tok.Encode(e.text)), e.ids, e.why);
        }

        // From gpt-3-encoder 1.1.4, in /tmp/enc:
        //   node -e "const {encode}=require('gpt-3-encoder');
        //            console.log(JSON.stringify(encode('Nel mezzo del cammin di nostra vita')))"
        //   -> [45,417,502,47802,1619,12172,1084,2566,18216,430,410,5350]
        // which encoder.json spells N|el| me|zzo| del| cam|min| di| nost|ra| v|ita.
        const std::string verse = "Nel mezzo del cammin di nostra vita";
        NS_TEST_ASSERT_MSG_EQ(Show(tok.Encode(verse)),
                              "[45, 417, 502, 47802, 1619, 12172, 1084, 2566, 18216, 430, 410, "
                              "5350]",
                              "first verse of the Comedy");
        NS_TEST_ASSERT_MSG_EQ(tok.Decode(tok.Encode(verse)), verse, "round trip");
        const std::string mixed = "Però ché città — «virtù» 😀 日本語 ½";
        NS_TEST_ASSERT_MSG_EQ(tok.Decode(tok.Encode(mixed)), mixed, "round trip, non-ASCII");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The Divine Comedy's statistics: its token count equals gpt-3-encoder's.
 */
class CorpusStatisticsCommediaTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CorpusStatisticsCommediaTestCase()
        : TestCase("Divine Comedy: bytes, characters, words, lines and GPT-2 tokens")
    {
    }

  private:
    void DoRun() override
    {
        BpeTokenizer tok;
        std::string error;
        std::string path = GetSharedDataDir() + "/divina_commedia.txt";
        if (!LoadGpt2(tok, error) || !std::ifstream(path).good())
        {
            ReportSkip(GetName(), "no gpt2-bpe folder or divina_commedia.txt in the shared data");
            return;
        }
        NS_TEST_ASSERT_MSG_EQ(error, "", "GPT-2 files");
        auto start = std::chrono::steady_clock::now();
        CorpusStatistics stats;
        NS_TEST_ASSERT_MSG_EQ(CorpusStatistics::Compute(path, tok, stats), "", "compute");
        double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        // From the data README: 556,827 bytes and 532,106 characters.
        NS_TEST_ASSERT_MSG_EQ(stats.GetBytes(), 556827u, "bytes");
        NS_TEST_ASSERT_MSG_EQ(stats.GetCharacters(), 532106u, "characters");
        // wc -l -w -m -c divina_commedia.txt (UTF-8 locale) -> 19252 97676 532106 556827, and
        // Python's len(text.split()) -> 97676; the file ends with a newline.
        NS_TEST_ASSERT_MSG_EQ(stats.GetWords(), 97676u, "words");
        NS_TEST_ASSERT_MSG_EQ(stats.GetLines(), 19252u, "lines");
        // In /tmp/enc, with count.js holding
        //   const {encode}=require('gpt-3-encoder');const fs=require('fs');
        //   const t=fs.readFileSync(process.argv[2],'utf8');console.log(encode(t).length);
        // node count.js divina_commedia.txt -> 235828 (it takes minutes).
        NS_TEST_ASSERT_MSG_EQ(stats.GetTokens(), 235828u, "tokens, as gpt-3-encoder");
        // The whole text in one piece gives the same count.
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        CorpusStatistics whole = CorpusStatistics::ComputeFromString(text.str(), tok);
        NS_TEST_ASSERT_MSG_EQ(whole.GetTokens(), 235828u, "tokens, in one piece");
        NS_TEST_ASSERT_MSG_EQ(whole.GetWords(), 97676u, "words, in one piece");
        // 235,828 / 1024 = 230.3 -> 231 sequences; 231 / 32 = 7.2 -> 8 iterations.
        NS_TEST_ASSERT_MSG_EQ(stats.GetSequences(1024), 231u, "sequences of 1024");
        NS_TEST_ASSERT_MSG_EQ(stats.GetIterationsPerEpoch(1024, 32), 8u, "iterations");
        NS_TEST_ASSERT_MSG_LT(seconds, 10.0, "tokenizing the Comedy takes seconds");

        // Three copies (1.7 MB) are read in pieces: the counts equal those of the text in one
        // piece.
        TempDir dir;
        std::string triple = text.str() + text.str() + text.str();
        std::string triplePath = dir.Write("triple.txt", triple);
        CorpusStatistics pieces;
        NS_TEST_ASSERT_MSG_EQ(CorpusStatistics::Compute(triplePath, tok, pieces), "", "triple");
        CorpusStatistics onePiece = CorpusStatistics::ComputeFromString(triple, tok);
        NS_TEST_ASSERT_MSG_EQ(pieces.GetTokens(), onePiece.GetTokens(), "tokens in pieces");
        NS_TEST_ASSERT_MSG_EQ(pieces.GetWords(), 3 * 97676u, "words in pieces");
        NS_TEST_ASSERT_MSG_EQ(pieces.GetLines(), 3 * 19252u, "lines in pieces");
        NS_TEST_ASSERT_MSG_EQ(pieces.GetCharacters(), 3 * 532106u, "characters in pieces");
    }
};

/**
 * @ingroup llm-fabric-tests
 * CorpusStatistics on small texts: counts and the rounding of sequences and iterations.
 */
class CorpusStatisticsSmallTestCase : public TestCase
{
  public:
    /** Create the test case. */
    CorpusStatisticsSmallTestCase()
        : TestCase("Corpus statistics of small texts, rounding up")
    {
    }

  private:
    void DoRun() override
    {
        BpeTokenizer tok;
        NS_TEST_ASSERT_MSG_EQ(tok.LoadFromStrings(TINY_ENCODER, TINY_MERGES), "", "tiny load");
        // "abc abc" -> [10, 20, 22, 20] (tiny test case): 4 tokens, 7 bytes and characters,
        // 2 words, 1 line (no final newline).
        CorpusStatistics s = CorpusStatistics::ComputeFromString("abc abc", tok);
        NS_TEST_ASSERT_MSG_EQ(s.GetTokens(), 4u, "tokens");
        NS_TEST_ASSERT_MSG_EQ(s.GetBytes(), 7u, "bytes");
        NS_TEST_ASSERT_MSG_EQ(s.GetCharacters(), 7u, "characters");
        NS_TEST_ASSERT_MSG_EQ(s.GetWords(), 2u, "words");
        NS_TEST_ASSERT_MSG_EQ(s.GetLines(), 1u, "lines");
        // 4 tokens: sequences of 3 -> ceil(4/3) = 2; of 4 -> 1; of 5 -> 1; 0 -> 0.
        NS_TEST_ASSERT_MSG_EQ(s.GetSequences(3), 2u, "partial sequence counts");
        NS_TEST_ASSERT_MSG_EQ(s.GetSequences(4), 1u, "exact");
        NS_TEST_ASSERT_MSG_EQ(s.GetSequences(5), 1u, "one short sequence");
        NS_TEST_ASSERT_MSG_EQ(s.GetSequences(0), 0u, "zero length");
        // Sequences of 1: 4; batches of 3 -> ceil(4/3) = 2; batches of 4 -> 1; batch 0 -> 0.
        NS_TEST_ASSERT_MSG_EQ(s.GetIterationsPerEpoch(1, 3), 2u, "partial batch counts");
        NS_TEST_ASSERT_MSG_EQ(s.GetIterationsPerEpoch(1, 4), 1u, "exact batch");
        NS_TEST_ASSERT_MSG_EQ(s.GetIterationsPerEpoch(1, 0), 0u, "zero batch");
        // "è é\n\n": 7 bytes, 5 characters (è, space, é, two newlines), 2 words, 2 lines.
        CorpusStatistics t = CorpusStatistics::ComputeFromString("è é\n\n", tok);
        NS_TEST_ASSERT_MSG_EQ(t.GetBytes(), 7u, "bytes of accented text");
        NS_TEST_ASSERT_MSG_EQ(t.GetCharacters(), 5u, "characters of accented text");
        NS_TEST_ASSERT_MSG_EQ(t.GetWords(), 2u, "words of accented text");
        NS_TEST_ASSERT_MSG_EQ(t.GetLines(), 2u, "lines ending in a newline");
        CorpusStatistics e = CorpusStatistics::ComputeFromString("", tok);
        NS_TEST_ASSERT_MSG_EQ(e.GetLines() + e.GetWords() + e.GetTokens(), 0u, "empty text");
    }
};

/**
 * @ingroup llm-fabric-tests
 * The BPE tokenizer and corpus statistics test suite.
 */
class BpeTokenizerTestSuite : public TestSuite
{
  public:
    /** Create the suite and register its test cases. */
    BpeTokenizerTestSuite()
        : TestSuite("llm-fabric-bpe-tokenizer", Type::UNIT)
    {
        AddTestCase(new BpeTokenizerTinyTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new BpeTokenizerPreTokenizeTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new BpeTokenizerRoundTripTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new BpeTokenizerErrorsTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new BpeTokenizerGpt2TestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CorpusStatisticsSmallTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CorpusStatisticsCommediaTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's static instance, which registers it.
static BpeTokenizerTestSuite g_bpeTokenizerTestSuite;

} // namespace tests
} // namespace llmfabric
