/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "figure-script.h"

#include "ns3/log.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FigureScript");

namespace
{

/// A CSV row, split into its fields.
using Row = std::vector<std::string>;

/**
 * Read a CSV row by row, without keeping it (a run's CSV can be large).
 * @param path the file.
 * @param separator the column separator (' ': runs of blanks and tabs).
 * @param header whether the first line is a header, left out of the rows.
 * @param visit called with each data row; returns false to stop reading.
 * @return whether the file could be read (and, with a header, had one).
 */
template <typename F>
bool
ForEachRow(const std::string& path, char separator, bool header, F visit)
{
    std::ifstream in(path);
    std::string line;
    if (!in || (header && !std::getline(in, line)))
    {
        return false;
    }
    Row fields;
    while (std::getline(in, line))
    {
        fields.clear();
        std::istringstream words(line);
        std::string field;
        if (separator == ' ')
        {
            while (words >> field)
            {
                fields.push_back(field);
            }
        }
        else
        {
            while (std::getline(words, field, separator))
            {
                fields.push_back(field);
            }
        }
        if (!fields.empty() && !visit(fields))
        {
            break;
        }
    }
    return true;
}

/**
 * @param row a row.
 * @param i a column, counted from 0.
 * @return its value as a number, or 0 when it is missing or not a number.
 */
double
Number(const std::vector<std::string>& row, size_t i)
{
    if (i >= row.size())
    {
        return 0;
    }
    char* end = nullptr;
    double value = std::strtod(row[i].c_str(), &end);
    return end == row[i].c_str() ? 0 : value;
}

/**
 * @param text a text for a shell command.
 * @return it in single quotes, any single quote in it escaped.
 */
std::string
ShellQuote(const std::string& text)
{
    std::string out = "'";
    for (char c : text)
    {
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    return out + "'";
}

/**
 * @param figure a figure.
 * @return the command that reads its CSV's columns.
 */
std::string
Separator(const FigureScript::Figure& figure)
{
    return "set datafile separator " +
           (figure.separator == ' ' ? std::string("whitespace")
                                    : FigureScript::Quote(std::string(1, figure.separator))) +
           "\n";
}

/**
 * The lines every script starts with: the picture's terminal and file, the CSV's separator.
 * @param figure the figure.
 * @param width the picture's width in pixels.
 * @param height its height.
 * @return the lines.
 */
std::string
Preamble(const FigureScript::Figure& figure, uint32_t width, uint32_t height)
{
    std::ostringstream out;
    out << "# " << figure.title << " (llm-fabric). Reads " << figure.csv
        << " in this folder; run: gnuplot " << figure.name << ".plt\n"
        << "set terminal pngcairo noenhanced size " << width << "," << height << " font \",10\"\n"
        << "set output " << FigureScript::Quote(figure.name + ".png") << "\n"
        << "set title " << FigureScript::Quote(figure.title) << "\n"
        << "set grid\n"
        << Separator(figure);
    return out.str();
}

/**
 * @param figure a figure.
 * @return the start of a plot clause over its data rows: the quoted name, and `every ::1`
 *         (from the second line) when the file has a header.
 */
std::string
Source(const FigureScript::Figure& figure)
{
    return FigureScript::Quote(figure.csv) + (figure.header ? " every ::1" : "");
}

/// The most flows an FCT slowdown figure draws: beyond it, a uniform sample. A point costs
/// gnuplot's pngcairo about 9 us (200,000 points of a 128-GPU iteration's flows.csv took 1.75 s),
/// and the plot area of the 1000 x 600 picture, some 450,000 pixels, is covered about twice by
/// 50,000 points of some 16 pixels each: more points only darken where it is already dark.
constexpr uint64_t MAX_FLOW_POINTS = 50000;

/**
 * Count a file's data rows as ForEachRow visits them, fast (no splitting).
 * @param path the file.
 * @param separator the column separator (' ': blanks and tabs only make an empty row).
 * @param header whether the first line is a header, not counted.
 * @return the rows (0 if the file cannot be read).
 */
uint64_t
CountRows(const std::string& path, char separator, bool header)
{
    std::ifstream in(path, std::ios::binary);
    std::vector<char> chunk(1 << 20);
    uint64_t lines = 0;
    bool content = false; // the current line has a field
    while (in)
    {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const char* at = chunk.data();
        const char* end = at + in.gcount();
        if (separator != ' ')
        {
            // Any byte but a newline is content: count the lines that hold one, newline to
            // newline with memchr (a training run's flows.csv is a gigabyte).
            while (at < end)
            {
                const auto* newline =
                    static_cast<const char*>(std::memchr(at, '\n', static_cast<size_t>(end - at)));
                if (!newline)
                {
                    content = true;
                    break;
                }
                lines += (content || newline > at) ? 1 : 0;
                content = false;
                at = newline + 1;
            }
        }
        else
        {
            for (; at < end; ++at)
            {
                char c = *at;
                if (c == '\n')
                {
                    lines += content ? 1 : 0;
                    content = false;
                }
                else if (c != ' ' && c != '\t' && c != '\r')
                {
                    content = true;
                }
            }
        }
    }
    lines += content ? 1 : 0;
    return header && lines > 0 ? lines - 1 : lines;
}

/**
 * The end of a script whose CSV has no row to draw: an empty frame that says so.
 * @return the lines.
 */
std::string
EmptyPlot()
{
    return "set label 1 \"no data\" at graph 0.5, graph 0.5 center\n"
           "set xrange [0:1]\nset yrange [0:1]\nunset logscale\nplot 2 notitle\n";
}

/**
 * A series of a long-format CSV: the rows with one key, and how large it is.
 */
struct Series
{
    std::string key;     //!< the key's text, for the legend
    std::string filter;  //!< the gnuplot condition that selects its rows
    double weight = 0;   //!< what orders the series (largest first)
    size_t firstRow = 0; //!< where it first appears
};

/**
 * Keep the MAX_SERIES heaviest series, the others named in a script comment.
 * @param all the series, each with its weight.
 * @param byWeight order by weight (largest first) rather than by first appearance.
 * @param comment receives the comment naming the series left out.
 * @return the kept series, in the order chosen.
 */
std::vector<Series>
Keep(std::vector<Series> all, bool byWeight, std::string& comment)
{
    std::stable_sort(all.begin(), all.end(), [byWeight](const Series& a, const Series& b) {
        return byWeight ? a.weight > b.weight : a.firstRow < b.firstRow;
    });
    if (all.size() > FigureScript::MAX_SERIES)
    {
        comment = "# Left out (only the first " + std::to_string(FigureScript::MAX_SERIES) +
                  " are drawn):";
        for (size_t i = FigureScript::MAX_SERIES; i < all.size(); ++i)
        {
            comment += " " + all[i].key;
        }
        comment += "\n";
        all.resize(FigureScript::MAX_SERIES);
    }
    return all;
}

/**
 * Copy each series' rows into a datablock $sN, so each can be drawn as one line.
 * @param figure the figure, whose CSV holds the rows.
 * @param series the series.
 * @param columns the `using` columns to copy.
 * @param first N of the first series' datablock; the others follow.
 * @return the lines.
 */
std::string
Datablocks(const FigureScript::Figure& figure,
           const std::vector<Series>& series,
           const std::string& columns,
           size_t first = 0)
{
    std::ostringstream out;
    for (size_t i = 0; i < series.size(); ++i)
    {
        out << "set table $s" << first + i << "\nplot " << Source(figure) << " using " << columns
            << " with table if (" << series[i].filter << ")\nunset table\n";
    }
    out << "set datafile separator whitespace\n";
    return out.str();
}

/**
 * The series of a long-format CSV, found as it is read: its rows grouped by a key of one or
 * two columns.
 */
class SeriesFinder
{
  public:
    /**
     * @param keyColumn the key's column (from 0).
     * @param priorityColumn a second key column holding a priority, or -1.
     */
    SeriesFinder(size_t keyColumn, int priorityColumn)
        : m_keyColumn(keyColumn),
          m_priorityColumn(priorityColumn)
    {
    }

    /**
     * Count a row in its series.
     * @param row the row.
     * @param weight what it adds to its series' weight.
     */
    void Add(const Row& row, double weight)
    {
        if (row.size() <= m_keyColumn)
        {
            return;
        }
        std::string key = row[m_keyColumn];
        if (m_priorityColumn >= 0)
        {
            key += " p" + std::to_string(static_cast<int>(Number(row, m_priorityColumn)));
        }
        auto it = m_index.find(key);
        if (it == m_index.end())
        {
            std::string filter = "strcol(" + std::to_string(m_keyColumn + 1) + ") eq " +
                                 FigureScript::Quote(row[m_keyColumn]);
            if (m_priorityColumn >= 0)
            {
                filter += " && column(" + std::to_string(m_priorityColumn + 1) +
                          ") == " + std::to_string(static_cast<int>(Number(row, m_priorityColumn)));
            }
            it = m_index.emplace(key, m_series.size()).first;
            m_series.push_back(Series{key, filter, 0, m_series.size()});
        }
        m_series[it->second].weight += weight;
    }

    /** @return the series, in order of first appearance. */
    const std::vector<Series>& Get() const
    {
        return m_series;
    }

  private:
    size_t m_keyColumn;                    //!< the key's column
    int m_priorityColumn;                  //!< the priority's column, or -1
    std::vector<Series> m_series;          //!< the series found
    std::map<std::string, size_t> m_index; //!< key -> index in m_series
};

/**
 * @param figure an FCT_SLOWDOWN figure.
 * @param path its CSV.
 * @param body set to the script's body.
 * @return whether the CSV could be read.
 */
bool
FctSlowdown(const FigureScript::Figure& figure, const std::string& path, std::string& body)
{
    bool any = false;
    if (!ForEachRow(path, figure.separator, figure.header, [&any](const Row&) {
            any = true;
            return false; // one row is enough: gnuplot reads the rest
        }))
    {
        return false;
    }
    std::ostringstream out;
    out << "set xlabel \"flow size (bytes)\"\nset ylabel \"FCT slowdown (FCT / FCT alone)\"\n"
        << "set key top left\n";
    if (!any)
    {
        body = out.str() + EmptyPlot();
        return true;
    }
    // The ideal, slowdown 1, as a line across the whole plot whatever range the data give.
    out << "set logscale xy\nset yrange [0.9:*]\n"
        << "set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc \"black\"\n"
        << "set label 2 \"alone (slowdown 1)\" at graph 0.99, first 1 right offset 0, 0.7\n";
    uint64_t rows = CountRows(path, figure.separator, figure.header);
    if (rows <= MAX_FLOW_POINTS)
    {
        out << "plot " << Source(figure) << " using (" << figure.x << "):(" << figure.y
            << ") with points pt 7 ps 0.6 title \"a flow\"\n";
    }
    else
    {
        // One row in k: the picture shows the distribution, not each flow (the CSV has them
        // all). To draw every flow: "every ::1" (or, without a header, no every).
        uint64_t k = (rows + MAX_FLOW_POINTS - 1) / MAX_FLOW_POINTS;
        out << "# " << rows << " flows: one row in " << k << " is drawn\n"
            << "plot " << FigureScript::Quote(figure.csv) << " every " << k
            << (figure.header ? "::1" : "") << " using (" << figure.x << "):(" << figure.y
            << ") with points pt 7 ps 0.6 title \"1 flow in " << k << " (of " << rows << ")\"\n";
    }
    body = out.str();
    return true;
}

/**
 * @param figure a QUEUE_DEPTH figure.
 * @param path its CSV (time_ns,port,priority,queue_bytes).
 * @param body set to the script's body.
 * @return whether the CSV could be read.
 */
bool
QueueDepth(const FigureScript::Figure& figure, const std::string& path, std::string& body)
{
    SeriesFinder finder(1, 2);
    if (!ForEachRow(path, figure.separator, figure.header, [&finder](const Row& row) {
            finder.Add(row, Number(row, 3));
            return true;
        }))
    {
        return false;
    }
    std::vector<Series> all = finder.Get();
    all.erase(std::remove_if(all.begin(), all.end(), [](const Series& s) { return s.weight <= 0; }),
              all.end());
    std::string leftOut;
    std::vector<Series> kept = Keep(all, true, leftOut);
    std::ostringstream out;
    out << leftOut
        << "set xlabel \"time (us)\"\nset ylabel \"queue (KB)\"\nset key outside right\n";
    if (kept.empty())
    {
        body = out.str() + EmptyPlot();
        return true;
    }
    out << Datablocks(figure, kept, "($1/1000.0):($4/1000.0)") << "plot ";
    for (size_t i = 0; i < kept.size(); ++i)
    {
        out << (i ? ", " : "") << "$s" << i << " using 1:2 with steps title "
            << FigureScript::Quote(kept[i].key);
    }
    out << "\n";
    body = out.str();
    return true;
}

/**
 * @param figure a PAUSE_GANTT figure.
 * @param path its CSV (port,priority,start_ns,end_ns).
 * @param body set to the script's body.
 * @return whether the CSV could be read.
 */
bool
PauseGantt(const FigureScript::Figure& figure, const std::string& path, std::string& body)
{
    // Columns (from 1) of the port, priority, start and end: FabricMonitor's by default.
    std::vector<uint32_t> c =
        figure.columns.size() == 4 ? figure.columns : std::vector<uint32_t>{1, 2, 3, 4};
    SeriesFinder finder(c[0] - 1, static_cast<int>(c[1]) - 1);
    if (!ForEachRow(path, figure.separator, figure.header, [&finder, &c](const Row& row) {
            finder.Add(row, Number(row, c[3] - 1) - Number(row, c[2] - 1));
            return true;
        }))
    {
        return false;
    }
    std::string leftOut;
    std::vector<Series> kept = Keep(finder.Get(), true, leftOut);
    std::ostringstream out;
    out << leftOut << "set xlabel \"time (us)\"\nset ylabel \"paused port and priority\"\n"
        << "unset key\n";
    if (kept.empty())
    {
        body = out.str() + EmptyPlot();
        return true;
    }
    // Row i of the chart (from the top) is series i: a bar from each interval's start to end.
    // Row 0 on top: the range runs from the last row down to the first (gnuplot's "reverse"
    // keyword acts only on autoscaled ranges).
    out << "set yrange [" << kept.size() - 0.5 << ":-0.5]\nset ytics (";
    for (size_t i = 0; i < kept.size(); ++i)
    {
        out << (i ? ", " : "") << FigureScript::Quote(kept[i].key) << " " << i;
    }
    out << ")\n"
        << Datablocks(figure,
                      kept,
                      "($" + std::to_string(c[2]) + "/1000.0):($" + std::to_string(c[3]) +
                          "/1000.0)")
        << "plot ";
    for (size_t i = 0; i < kept.size(); ++i)
    {
        out << (i ? ", " : "") << "$s" << i << " using 1:(" << i
            << "):($2-$1):(0) with vectors nohead lw 10 lc " << i + 1;
    }
    out << "\n";
    body = out.str();
    return true;
}

/**
 * @param figure an ITERATION_BREAKDOWN figure.
 * @param path its CSV (rank,iteration,start_us,end_us,time_us,compute_us,communication_us,
 *        exposed_us,bubble_us).
 * @param body set to the script's body.
 * @return whether the CSV could be read.
 */
bool
IterationBreakdown(const FigureScript::Figure& figure, const std::string& path, std::string& body)
{
    double last = -1;
    const std::string& job = figure.job;
    if (!ForEachRow(path, figure.separator, figure.header, [&last, &job](const Row& row) {
            if (job.empty() || (row.size() > 9 && row[9] == job))
            {
                last = std::max(last, Number(row, 1));
            }
            return true;
        }))
    {
        return false;
    }
    std::ostringstream out;
    out << "set xlabel \"rank\"\nset ylabel \"time (us)\"\nset key outside right\n"
        << "set style fill solid 0.8 border -1\nset boxwidth 0.8\n";
    if (last < 0)
    {
        body = out.str() + EmptyPlot();
        return true;
    }
    // Stacked by drawing the totals first: compute + exposed + bubble, then compute + exposed,
    // then compute, each box over the previous one.
    auto it = static_cast<int64_t>(last);
    std::string selected = "column(2) == " + std::to_string(it);
    if (!job.empty())
    {
        selected += " && strcol(10) eq " + FigureScript::Quote(job);
    }
    std::string in = Source(figure) + " using (" + selected + " ? column(1) : NaN)";
    out << "set title " << FigureScript::Quote(figure.title + ", iteration " + std::to_string(it))
        << "\nset yrange [0:*]\nplot " << in
        << ":($6+$8+$9) with boxes lc rgb \"#bbbbbb\" title \"pipeline bubble\", \\\n  " << in
        << ":($6+$8) with boxes lc rgb \"#d95f02\" title \"exposed communication\", \\\n  " << in
        << ":6 with boxes lc rgb \"#1b9e77\" title \"compute\"\n";
    body = out.str();
    return true;
}

/**
 * @param figure a CC_RATE figure.
 * @param path its CSV (time_us,flow,variable,value).
 * @param body set to the script's body.
 * @param panels set to the number of panels (variables) drawn.
 * @return whether the CSV could be read.
 */
bool
CcRate(const FigureScript::Figure& figure,
       const std::string& path,
       std::string& body,
       size_t& panels)
{
    std::vector<std::string> variables;
    std::vector<SeriesFinder> flows;
    if (!ForEachRow(path, figure.separator, figure.header, [&](const Row& row) {
            if (row.size() < 3)
            {
                return true;
            }
            auto v = std::find(variables.begin(), variables.end(), row[2]);
            if (v == variables.end())
            {
                variables.push_back(row[2]);
                flows.emplace_back(1, -1);
                v = variables.end() - 1;
            }
            flows[v - variables.begin()].Add(row, 1);
            return true;
        }))
    {
        return false;
    }
    panels = std::max<size_t>(1, variables.size());
    std::ostringstream out;
    out << "set xlabel \"time (us)\"\nset key outside right\n";
    if (variables.empty())
    {
        body = out.str() + EmptyPlot();
        return true;
    }
    out << "set multiplot layout " << variables.size() << ",1\n";
    size_t block = 0;
    for (size_t v = 0; v < variables.size(); ++v)
    {
        std::string leftOut;
        std::vector<Series> kept = Keep(flows[v].Get(), false, leftOut);
        for (auto& s : kept)
        {
            s.filter += " && strcol(3) eq " + FigureScript::Quote(variables[v]);
            s.key = "flow " + s.key;
        }
        out << leftOut << "set title " << FigureScript::Quote(figure.title + ": " + variables[v])
            << "\nset ylabel " << FigureScript::Quote(variables[v]) << "\n"
            << Separator(figure) << Datablocks(figure, kept, "1:4", block) << "plot ";
        for (size_t i = 0; i < kept.size(); ++i)
        {
            out << (i ? ", " : "") << "$s" << block + i << " using 1:2 with steps title "
                << FigureScript::Quote(kept[i].key);
        }
        out << "\n";
        block += kept.size();
    }
    out << "unset multiplot\n";
    body = out.str();
    return true;
}

} // namespace

std::string
FigureScript::Quote(const std::string& text)
{
    std::string out;
    for (char c : text)
    {
        if (c == '\\' || c == '"')
        {
            out += '\\';
        }
        out += c;
    }
    return "\"" + out + "\"";
}

std::string
FigureScript::Write(const std::string& dir, const Figure& figure)
{
    NS_LOG_FUNCTION(dir << figure.name);
    std::string csvPath = dir + "/" + figure.csv;
    std::string body;
    uint32_t height = 600;
    bool read = false;
    switch (figure.kind)
    {
    case FCT_SLOWDOWN:
        read = FctSlowdown(figure, csvPath, body);
        break;
    case QUEUE_DEPTH:
        read = QueueDepth(figure, csvPath, body);
        break;
    case PAUSE_GANTT:
        read = PauseGantt(figure, csvPath, body);
        break;
    case ITERATION_BREAKDOWN:
        read = IterationBreakdown(figure, csvPath, body);
        break;
    case CC_RATE: {
        size_t panels = 1;
        read = CcRate(figure, csvPath, body, panels);
        height = 300 * static_cast<uint32_t>(panels);
        break;
    }
    }
    if (!read)
    {
        return csvPath + ": cannot be read for the figure " + figure.name;
    }
    std::string path = dir + "/" + figure.name + ".plt";
    std::ofstream out(path);
    out << Preamble(figure, 1000, height) << body;
    out.close();
    return out ? "" : path + ": cannot be written";
}

std::string
FigureScript::WriteAndDraw(const std::string& dir, const std::vector<Figure>& figures, bool& drawn)
{
    drawn = HaveProgram("gnuplot");
    for (const auto& figure : figures)
    {
        std::string problem = Write(dir, figure);
        if (problem.empty() && drawn)
        {
            problem = RunGnuplot(dir + "/" + figure.name + ".plt");
        }
        if (!problem.empty())
        {
            return problem;
        }
    }
    return "";
}

std::string
FigureScript::Describe(const std::string& dir, const std::vector<Figure>& figures, bool drawn)
{
    std::string names;
    for (const auto& figure : figures)
    {
        names += (names.empty() ? "" : ", ") + figure.name + ".plt";
    }
    if (drawn)
    {
        return "  figures: " + names + " and their PNG pictures in " + dir;
    }
    return "  figures: " + names + " in " + dir +
           " (gnuplot is not installed: no PNG; install the Debian package gnuplot-nox, then "
           "run gnuplot on each script in that folder)";
}

FigureScript::Figure
FigureScript::PauseTreeGantt()
{
    Figure figure{PAUSE_GANTT, "pause-tree.csv", "pause-tree", "PFC pauses (pause trees)"};
    figure.columns = {3, 4, 5, 6}; // storm,parent,child,priority,start_ns,end_ns,...
    return figure;
}

bool
FigureScript::HaveProgram(const std::string& program)
{
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path != nullptr ? path : "");
    std::string dir;
    while (std::getline(dirs, dir, ':'))
    {
        std::string candidate = (dir.empty() ? "." : dir) + "/" + program;
        if (access(candidate.c_str(), X_OK) == 0)
        {
            return true;
        }
    }
    return false;
}

std::string
FigureScript::RunGnuplot(const std::string& scriptPath)
{
    std::string::size_type slash = scriptPath.rfind('/');
    std::string dir = slash == std::string::npos ? "." : scriptPath.substr(0, slash + 1);
    std::string script = slash == std::string::npos ? scriptPath : scriptPath.substr(slash + 1);
    std::string command = "cd " + ShellQuote(dir) + " && gnuplot " + ShellQuote(script) + " 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    if (pipe == nullptr)
    {
        return "cannot start gnuplot";
    }
    std::string output;
    char buffer[256];
    while (fgets(buffer, sizeof(buffer), pipe) != nullptr)
    {
        output += buffer;
    }
    int status = pclose(pipe);
    if (status != 0)
    {
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        return "gnuplot " + scriptPath + " failed (exit status " + std::to_string(code) +
               "): " + output;
    }
    return "";
}

} // namespace ns3
