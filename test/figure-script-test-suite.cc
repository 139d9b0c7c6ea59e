/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "llm-fabric-test-util.h"

#include "ns3/figure-script.h"
#include "ns3/llm-fabric-compat.h"
#include "ns3/test.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

/**
 * @file
 * @ingroup llm-fabric-tests
 * FigureScript: the gnuplot scripts the programs write next to their CSV files. Each case writes
 * a small CSV by hand, writes the figure's script and checks what the script selects; where
 * gnuplot is installed (CI), gnuplot runs the script, draws a PNG of the expected size, and the
 * datablocks the script builds hold exactly the rows of each series (counted by gnuplot itself,
 * `|$sN|`). Without gnuplot those parts are skipped with a message.
 */

using namespace ns3;

namespace llmfabric
{
namespace tests
{

namespace
{

/**
 * Write a file.
 * @param path the file.
 * @param text its content.
 */
void
WriteText(const std::string& path, const std::string& text)
{
    std::ofstream out(path);
    out << text;
}

/**
 * @param text a text.
 * @param piece a piece of text.
 * @return how many times the piece occurs in the text.
 */
size_t
Count(const std::string& text, const std::string& piece)
{
    size_t n = 0;
    for (size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1))
    {
        ++n;
    }
    return n;
}

/**
 * The base of the cases: a temporary folder, and gnuplot run on a script.
 */
class FigureTestCase : public TestCase
{
  public:
    /**
     * @param name the case's name.
     */
    explicit FigureTestCase(const std::string& name)
        : TestCase(name)
    {
    }

  protected:
    /**
     * Write the figure's script from a CSV written here.
     * @param figure the figure.
     * @param csv the CSV's content.
     * @return the script's text.
     */
    std::string WriteFigure(const FigureScript::Figure& figure, const std::string& csv)
    {
        m_dir = CreateTempDirFilename(figure.name);
        std::filesystem::create_directories(m_dir);
        WriteText(m_dir + "/" + figure.csv, csv);
        std::string problem = FigureScript::Write(m_dir, figure);
        NS_TEST_EXPECT_MSG_EQ(problem, "", "the script is written");
        return ReadBytes(m_dir + "/" + figure.name + ".plt");
    }

    /**
     * With gnuplot: run the figure's script; it must succeed and draw a PNG of the given size.
     * Then count the rows of the datablocks $s0 .. $s(n-1) the script builds.
     * @param name the figure's name.
     * @param width the PNG's expected width in pixels.
     * @param height its expected height.
     * @param blocks how many datablocks to count.
     * @return the rows of each datablock, or nothing when gnuplot is not installed.
     */
    std::vector<int> Draw(const std::string& name, uint32_t width, uint32_t height, int blocks)
    {
        if (!FigureScript::HaveProgram("gnuplot"))
        {
            ReportSkip(GetName(), "gnuplot is not installed (Debian: gnuplot-nox): not drawn");
            return {};
        }
        NS_TEST_EXPECT_MSG_EQ(FigureScript::RunGnuplot(m_dir + "/" + name + ".plt"),
                              "",
                              "gnuplot runs the script");
        // A PNG: the 8-byte signature, then the IHDR chunk (length, "IHDR", width, height, big
        // endian), PNG specification (ISO/IEC 15948) sections 5.2 and 11.2.2.
        std::string png = ReadBytes(m_dir + "/" + name + ".png");
        NS_TEST_EXPECT_MSG_GT(png.size(), 24, "a PNG is drawn");
        if (png.size() <= 24)
        {
            return {};
        }
        NS_TEST_EXPECT_MSG_EQ(png.substr(1, 3), "PNG", "the PNG signature");
        NS_TEST_EXPECT_MSG_EQ(png.substr(12, 4), "IHDR", "the header chunk");
        auto word = [&png](size_t at) {
            uint32_t v = 0;
            for (size_t i = 0; i < 4; ++i)
            {
                v = (v << 8) | static_cast<unsigned char>(png[at + i]);
            }
            return v;
        };
        NS_TEST_EXPECT_MSG_EQ(word(16), width, "the picture's width");
        NS_TEST_EXPECT_MSG_EQ(word(20), height, "the picture's height");
        // The datablocks: the same script with a terminal that draws nothing, then gnuplot's
        // count of each datablock's lines (|$sN|, one per row copied).
        std::string probe = m_dir + "/probe.gp";
        std::string text = "set print \"-\"\nload \"" + name + ".plt\"\n";
        for (int i = 0; i < blocks; ++i)
        {
            text += "print |$s" + std::to_string(i) + "|\n";
        }
        WriteText(probe, text);
        std::string out =
            RunCommand("cd '" + m_dir + "' && gnuplot probe.gp 2>/dev/null", m_status);
        NS_TEST_EXPECT_MSG_EQ(m_status, 0, "gnuplot counts the datablocks");
        std::vector<int> rows;
        std::istringstream lines(out);
        int n = 0;
        while (lines >> n)
        {
            rows.push_back(n);
        }
        return rows;
    }

    std::string m_dir; //!< the case's folder
    int m_status = 0;  //!< the last command's exit status
};

/**
 * FCT slowdown by size: a point per flow from the caller's two expressions, both axes
 * logarithmic; a header-only CSV (a run with no finished flow) gives an empty frame that still
 * draws.
 */
class FctSlowdownFigureTestCase : public FigureTestCase
{
  public:
    FctSlowdownFigureTestCase()
        : FigureTestCase("FCT slowdown: columns given by the caller, log axes, empty runs")
    {
    }

  private:
    void DoRun() override
    {
        FigureScript::Figure f{FigureScript::FCT_SLOWDOWN,
                               "fct.csv",
                               "fct-slowdown",
                               "FCT \"slowdown\"",
                               "column(3)",
                               "column(8)"};
        std::string script = WriteFigure(f,
                                         "flow,sender,bytes,start_us,end_us,fct_us,ideal_us,"
                                         "slowdown\n0,0,1000,0,5,5,2.5,2\n1,1,100000,0,40,40,20,"
                                         "2\n2,2,1000000,0,410,410,205,2\n");
        NS_TEST_EXPECT_MSG_NE(script.find("set output \"fct-slowdown.png\"\n"),
                              std::string::npos,
                              "the picture is named after the figure");
        NS_TEST_EXPECT_MSG_NE(script.find("set title \"FCT \\\"slowdown\\\"\"\n"),
                              std::string::npos,
                              "the title, its quotes escaped");
        NS_TEST_EXPECT_MSG_NE(
            script.find("plot \"fct.csv\" every ::1 using (column(3)):(column(8))"),
            std::string::npos,
            "the CSV by its bare name, header skipped, the caller's expressions");
        NS_TEST_EXPECT_MSG_NE(script.find("set logscale xy\n"), std::string::npos, "log axes");
        Draw("fct-slowdown", 1000, 600, 0);

        // The peer's FCT file: blank-separated, no header, slowdown as a ratio of two columns.
        FigureScript::Figure peer{FigureScript::FCT_SLOWDOWN,
                                  "fct.txt",
                                  "peer",
                                  "peer",
                                  "column(5)",
                                  "column(7)/column(8)",
                                  ' ',
                                  false};
        script = WriteFigure(peer, "0 1 10000 100 1000000 2000000000 120000 84000\n");
        NS_TEST_EXPECT_MSG_NE(script.find("set datafile separator whitespace\n"),
                              std::string::npos,
                              "blank-separated");
        NS_TEST_EXPECT_MSG_NE(script.find("plot \"fct.txt\" using (column(5))"),
                              std::string::npos,
                              "no header: every line is data");
        Draw("peer", 1000, 600, 0);

        script = WriteFigure(f, "flow,sender,bytes,start_us,end_us,fct_us,ideal_us,slowdown\n");
        NS_TEST_EXPECT_MSG_NE(script.find("no data"), std::string::npos, "an empty frame");
        NS_TEST_EXPECT_MSG_EQ(script.find("fct.csv\" every"), std::string::npos, "no data plot");
        Draw("fct-slowdown", 1000, 600, 0);
    }
};

/**
 * FCT slowdown of a large flow table: up to MAX_FLOW_POINTS (50,000) rows every flow is drawn;
 * beyond, one row in k = ceil(rows / 50,000), said in the key, and gnuplot reads that many.
 * The rows are counted as ForEachRow reads them: blank lines (and, blank-separated, lines of
 * blanks) are not rows, CRLF lines and a last line without a newline are.
 */
class FctSlowdownSampledFigureTestCase : public FigureTestCase
{
  public:
    FctSlowdownSampledFigureTestCase()
        : FigureTestCase("FCT slowdown: more than 50,000 flows are drawn one in k")
    {
    }

  private:
    /**
     * @param rows data rows.
     * @param header with a header line.
     * @return a flow table: bytes in column 1, slowdown in column 2.
     */
    static std::string Table(uint32_t rows, bool header)
    {
        std::string csv = header ? "bytes,slowdown\n" : "";
        for (uint32_t i = 0; i < rows; ++i)
        {
            csv += std::to_string(1000 + i) + (header ? "," : " ") + "1.5\n";
        }
        return csv;
    }

    /**
     * @param clause the data clause (file and every) to count.
     * @return the records gnuplot reads through it, or -1 without gnuplot.
     */
    int Records(const std::string& clause)
    {
        if (!FigureScript::HaveProgram("gnuplot"))
        {
            ReportSkip(GetName(), "gnuplot is not installed (Debian: gnuplot-nox): not counted");
            return -1;
        }
        WriteText(m_dir + "/count.gp",
                  "set datafile separator \",\"\nstats " + clause +
                      " using 1 nooutput\nset print \"-\"\nprint STATS_records\n");
        std::string out =
            RunCommand("cd '" + m_dir + "' && gnuplot count.gp 2>/dev/null", m_status);
        NS_TEST_EXPECT_MSG_EQ(m_status, 0, "gnuplot counts the records");
        return std::atoi(out.c_str());
    }

    void DoRun() override
    {
        FigureScript::Figure f{FigureScript::FCT_SLOWDOWN,
                               "flows.csv",
                               "fct-slowdown",
                               "flows",
                               "column(1)",
                               "column(2)"};
        // 50,000 rows: all drawn, as for a small table.
        std::string script = WriteFigure(f, Table(50000, true));
        NS_TEST_EXPECT_MSG_NE(script.find("plot \"flows.csv\" every ::1 using"),
                              std::string::npos,
                              "50,000 flows: every one");
        NS_TEST_EXPECT_MSG_NE(script.find("title \"a flow\""), std::string::npos, "the key");
        // 100,001 rows: k = ceil(100,001 / 50,000) = 3; rows 1, 4, ..., 100,000 of the data
        // (gnuplot's points 1 to 100,001, the header being point 0): (100,001 - 1) / 3 + 1 =
        // 33,334 records.
        script = WriteFigure(f, Table(100001, true));
        NS_TEST_EXPECT_MSG_NE(script.find("plot \"flows.csv\" every 3::1 using (column(1))"),
                              std::string::npos,
                              "one row in 3, header skipped");
        NS_TEST_EXPECT_MSG_NE(script.find("title \"1 flow in 3 (of 100001)\""),
                              std::string::npos,
                              "the key says so");
        int records = Records("\"flows.csv\" every 3::1");
        if (records >= 0)
        {
            NS_TEST_EXPECT_MSG_EQ(records, 33334, "gnuplot reads one row in 3");
        }
        // No header, blank-separated, 50,001 rows: k = 2, rows 1, 3, ..., 50,001: 25,001.
        FigureScript::Figure peer{FigureScript::FCT_SLOWDOWN,
                                  "fct.txt",
                                  "peer",
                                  "peer",
                                  "column(1)",
                                  "column(2)",
                                  ' ',
                                  false};
        script = WriteFigure(peer, Table(50001, false));
        NS_TEST_EXPECT_MSG_NE(script.find("plot \"fct.txt\" every 2 using (column(1))"),
                              std::string::npos,
                              "one row in 2, no header");
        NS_TEST_EXPECT_MSG_NE(script.find("title \"1 flow in 2 (of 50001)\""),
                              std::string::npos,
                              "the key says so");
        // Rows as ForEachRow reads them, counted across the reader's 1 MiB chunks (rows of 50
        // bytes: 2.5 MB): after every 1000th row a line that is not a row (empty when
        // comma-separated; blanks, a tab and a CR when blank-separated), a CRLF line is a row,
        // and so is the last line, without a newline. 50,000 such rows: every one drawn;
        // 50,001: one in 2. Both separators, since they are counted by different loops.
        for (char separator : {',', ' '})
        {
            FigureScript::Figure g = separator == ',' ? f : peer;
            const std::string sep(1, separator);
            const std::string notRow = separator == ',' ? "\n" : "  \t\r\n";
            for (uint32_t rows : {50000U, 50001U})
            {
                std::string csv = separator == ',' ? "bytes,slowdown,note\n" : "";
                for (uint32_t i = 0; i < rows; ++i)
                {
                    csv += std::to_string(1000 + i) + sep + "1.5" + sep + std::string(30, 'x');
                    if (i + 1 < rows)
                    {
                        csv += i % 2 ? "\r\n" : "\n";
                        if (i % 1000 == 999)
                        {
                            csv += notRow;
                        }
                    }
                }
                script = WriteFigure(g, csv);
                NS_TEST_EXPECT_MSG_NE(
                    script.find(rows == 50000 ? "title \"a flow\""
                                              : "title \"1 flow in 2 (of 50001)\""),
                    std::string::npos,
                    "rows counted as read: " << rows << ", separator '" << separator << "'");
            }
        }
    }
};

/**
 * Queue depth: a line per (port, priority) that ever held a byte, the deepest first (by the sum
 * of its samples), at most MAX_SERIES, those left out named in a comment.
 */
class QueueDepthFigureTestCase : public FigureTestCase
{
  public:
    QueueDepthFigureTestCase()
        : FigureTestCase("Queue depth: a line per queue that held bytes, deepest first")
    {
    }

  private:
    void DoRun() override
    {
        // Samples at 0, 1000 and 2000 ns of three queues: "sw 0/1" priority 3 (0, 4000, 2000:
        // sum 6000), "sw 0/1" priority 0 (never a byte) and "host2" priority 3 (1000, 9000, 0:
        // sum 10000).
        // Expected: two lines, host2 p3 first ($s0, 3 rows), then "sw 0/1 p3" ($s1, 3 rows); the
        // empty queue is not drawn. The space in "sw 0/1" survives: the filter compares strcol.
        std::string csv = "time_ns,port,priority,queue_bytes\n";
        int samples[3][3] = {{0, 4000, 2000}, {0, 0, 0}, {1000, 9000, 0}};
        for (int t = 0; t < 3; ++t)
        {
            csv += std::to_string(t * 1000) + ",sw 0/1,3," + std::to_string(samples[0][t]) + "\n";
            csv += std::to_string(t * 1000) + ",sw 0/1,0," + std::to_string(samples[1][t]) + "\n";
            csv += std::to_string(t * 1000) + ",host2,3," + std::to_string(samples[2][t]) + "\n";
        }
        FigureScript::Figure f{FigureScript::QUEUE_DEPTH, "queue.csv", "queue", "Queue depth"};
        std::string script = WriteFigure(f, csv);
        NS_TEST_EXPECT_MSG_EQ(Count(script, "set table $s"), 2, "two queues held bytes");
        NS_TEST_EXPECT_MSG_NE(script.find("$s0 using 1:2 with steps title \"host2 p3\", $s1 using "
                                          "1:2 with steps title \"sw 0/1 p3\""),
                              std::string::npos,
                              "deepest first");
        NS_TEST_EXPECT_MSG_NE(script.find("strcol(2) eq \"sw 0/1\" && column(3) == 3"),
                              std::string::npos,
                              "rows selected by port and priority");
        std::vector<int> rows = Draw("queue", 1000, 600, 2);
        if (!rows.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(rows.size(), 2, "two datablocks counted");
            NS_TEST_EXPECT_MSG_EQ(rows[0], 3, "host2 p3: its three samples");
            NS_TEST_EXPECT_MSG_EQ(rows[1], 3, "sw 0/1 p3: its three samples");
        }

        // MAX_SERIES + 4 queues, queue i holding i + 1 bytes: the 16 deepest (20 down to 5
        // bytes: ports q19 .. q4) are drawn and q3 .. q0 named as left out.
        csv = "time_ns,port,priority,queue_bytes\n";
        const uint32_t n = FigureScript::MAX_SERIES + 4;
        for (uint32_t i = 0; i < n; ++i)
        {
            csv += "0,q" + std::to_string(i) + ",3," + std::to_string(i + 1) + "\n";
        }
        script = WriteFigure(f, csv);
        NS_TEST_EXPECT_MSG_EQ(Count(script, "set table $s"),
                              FigureScript::MAX_SERIES,
                              "at most MAX_SERIES lines");
        NS_TEST_EXPECT_MSG_NE(script.find(" are drawn): q3 p3 q2 p3 q1 p3 q0 p3\n"),
                              std::string::npos,
                              "the four shallowest named as left out");
        NS_TEST_EXPECT_MSG_NE(script.find("title \"q19 p3\""), std::string::npos, "deepest in");
        NS_TEST_EXPECT_MSG_EQ(script.find("title \"q3 p3\""), std::string::npos, "q3 left out");
        Draw("queue", 1000, 600, 0);
    }
};

/**
 * Pause intervals: a Gantt row per paused (port, priority), the longest paused first, a bar per
 * interval.
 */
class PauseGanttFigureTestCase : public FigureTestCase
{
  public:
    PauseGanttFigureTestCase()
        : FigureTestCase("Pause intervals: a Gantt row per queue, longest paused first")
    {
    }

  private:
    void DoRun() override
    {
        // leaf0/1 priority 3 paused [0, 100] and [200, 300] ns: 200 ns in all; spine0/2
        // priority 3 paused [50, 500] ns: 450 ns. Expected rows: spine0/2 p3 (row 0, one bar),
        // leaf0/1 p3 (row 1, two bars).
        FigureScript::Figure f{FigureScript::PAUSE_GANTT, "pauses.csv", "pauses", "Pauses"};
        std::string script = WriteFigure(f,
                                         "port,priority,start_ns,end_ns\nleaf0/1,3,0,100\n"
                                         "spine0/2,3,50,500\nleaf0/1,3,200,300\n");
        NS_TEST_EXPECT_MSG_NE(script.find("set ytics (\"spine0/2 p3\" 0, \"leaf0/1 p3\" 1)\n"),
                              std::string::npos,
                              "longest paused on top");
        NS_TEST_EXPECT_MSG_NE(script.find("set yrange [1.5:-0.5]\n"),
                              std::string::npos,
                              "two rows");
        NS_TEST_EXPECT_MSG_NE(script.find("$s1 using 1:(1):($2-$1):(0) with vectors nohead"),
                              std::string::npos,
                              "a bar from start to end on its row");
        std::vector<int> rows = Draw("pauses", 1000, 600, 2);
        if (!rows.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(rows.size(), 2, "two datablocks counted");
            NS_TEST_EXPECT_MSG_EQ(rows[0], 1, "spine0/2 p3: one interval");
            NS_TEST_EXPECT_MSG_EQ(rows[1], 2, "leaf0/1 p3: two intervals");
        }
        // No pause at all (the common case without congestion): an empty frame.
        script = WriteFigure(f, "port,priority,start_ns,end_ns\n");
        NS_TEST_EXPECT_MSG_NE(script.find("no data"), std::string::npos, "an empty frame");
        Draw("pauses", 1000, 600, 0);
    }
};

/**
 * Iteration breakdown: one stacked bar per rank of the last iteration, whatever the order in
 * which ranks finished.
 */
class IterationBreakdownFigureTestCase : public FigureTestCase
{
  public:
    IterationBreakdownFigureTestCase()
        : FigureTestCase("Iteration breakdown: the last iteration, a stacked bar per rank")
    {
    }

  private:
    void DoRun() override
    {
        // Two ranks, iterations 0 and 1, rows in finishing order (rank 1 first in iteration 1):
        // the figure shows iteration 1.
        FigureScript::Figure f{FigureScript::ITERATION_BREAKDOWN,
                               "iterations.csv",
                               "iterations",
                               "Iteration breakdown"};
        std::string script = WriteFigure(
            f,
            "rank,iteration,start_us,end_us,time_us,compute_us,communication_us,exposed_us,"
            "bubble_us\n0,0,0,100,100,60,50,30,10\n1,0,0,100,100,70,40,20,10\n"
            "1,1,100,190,90,70,40,20,0\n0,1,100,200,100,60,50,30,10\n");
        NS_TEST_EXPECT_MSG_NE(script.find("Iteration breakdown, iteration 1\""),
                              std::string::npos,
                              "the last iteration");
        NS_TEST_EXPECT_MSG_EQ(Count(script, "using (column(2) == 1 ? column(1) : NaN)"),
                              3,
                              "three stacked layers of that iteration's rows");
        NS_TEST_EXPECT_MSG_NE(script.find(":($6+$8+$9) with boxes"),
                              std::string::npos,
                              "compute + exposed + bubble on the bottom layer");
        Draw("iterations", 1000, 600, 0);
    }
};

/**
 * Congestion-control variables: a panel per variable, a line per flow, the picture 300 pixels
 * high per panel.
 */
class CcRateFigureTestCase : public FigureTestCase
{
  public:
    CcRateFigureTestCase()
        : FigureTestCase("CC variables: a panel per variable, a line per flow")
    {
    }

  private:
    void DoRun() override
    {
        // Flow 0: rate at 0, 5, 9 us, alpha at 5 us; flow 1: rate at 2 us. Expected: panel
        // rate_gbps with $s0 (flow 0, 3 rows) and $s1 (flow 1, 1 row), panel alpha with $s2
        // (flow 0, 1 row); 2 panels: 600 pixels high.
        FigureScript::Figure f{FigureScript::CC_RATE, "cc.csv", "cc", "CC"};
        std::string script = WriteFigure(f,
                                         "time_us,flow,variable,value\n0,0,rate_gbps,100\n"
                                         "2,1,rate_gbps,100\n5,0,rate_gbps,50\n5,0,alpha,1\n"
                                         "9,0,rate_gbps,75\n");
        NS_TEST_EXPECT_MSG_NE(script.find("set multiplot layout 2,1\n"),
                              std::string::npos,
                              "two panels");
        NS_TEST_EXPECT_MSG_NE(script.find("set title \"CC: alpha\""),
                              std::string::npos,
                              "a panel per variable");
        NS_TEST_EXPECT_MSG_NE(script.find("strcol(2) eq \"0\" && strcol(3) eq \"alpha\""),
                              std::string::npos,
                              "rows selected by flow and variable");
        std::vector<int> rows = Draw("cc", 1000, 600, 3);
        if (!rows.empty())
        {
            NS_TEST_ASSERT_MSG_EQ(rows.size(), 3, "three datablocks counted");
            NS_TEST_EXPECT_MSG_EQ(rows[0], 3, "flow 0's rates");
            NS_TEST_EXPECT_MSG_EQ(rows[1], 1, "flow 1's rate");
            NS_TEST_EXPECT_MSG_EQ(rows[2], 1, "flow 0's alpha");
        }
    }
};

/**
 * What cannot be done is said in one line: a missing CSV, an unwritable folder.
 */
class FigureErrorsTestCase : public TestCase
{
  public:
    FigureErrorsTestCase()
        : TestCase("Figures: a missing CSV or an unwritable folder is one line")
    {
    }

  private:
    void DoRun() override
    {
        std::string dir = CreateTempDirFilename("figure-errors");
        std::filesystem::create_directories(dir);
        FigureScript::Figure f{FigureScript::QUEUE_DEPTH, "missing.csv", "q", "q"};
        NS_TEST_EXPECT_MSG_EQ(FigureScript::Write(dir, f),
                              dir + "/missing.csv: cannot be read for the figure q",
                              "a missing CSV");
        bool drawn = true;
        NS_TEST_EXPECT_MSG_EQ(FigureScript::WriteAndDraw(dir, {f}, drawn),
                              dir + "/missing.csv: cannot be read for the figure q",
                              "the first problem is returned");
        WriteText(dir + "/q.csv", "time_ns,port,priority,queue_bytes\n");
        f.csv = "q.csv";
        f.name = "no-such-folder/q";
        NS_TEST_EXPECT_MSG_EQ(FigureScript::Write(dir, f),
                              dir + "/no-such-folder/q.plt: cannot be written",
                              "an unwritable script");
        NS_TEST_EXPECT_MSG_EQ(FigureScript::Quote("a\"b\\c"), "\"a\\\"b\\\\c\"", "escaped");
        NS_TEST_EXPECT_MSG_NE(FigureScript::Describe(dir, {f}, false)
                                  .find("gnuplot is not "
                                        "installed"),
                              std::string::npos,
                              "without gnuplot the line says so");
    }
};

} // namespace

/**
 * @ingroup llm-fabric-tests
 * The suite.
 */
class FigureScriptTestSuite : public TestSuite
{
  public:
    FigureScriptTestSuite()
        : TestSuite("llm-fabric-figures", Type::UNIT)
    {
        AddTestCase(new FctSlowdownFigureTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FctSlowdownSampledFigureTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new QueueDepthFigureTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new PauseGanttFigureTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new IterationBreakdownFigureTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new CcRateFigureTestCase, ns3::llmfabric::TEST_QUICK);
        AddTestCase(new FigureErrorsTestCase, ns3::llmfabric::TEST_QUICK);
    }
};

/// The suite's instance.
static FigureScriptTestSuite g_figureScriptTestSuite;

} // namespace tests
} // namespace llmfabric
