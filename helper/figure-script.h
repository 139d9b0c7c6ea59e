/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FIGURE_SCRIPT_H
#define FIGURE_SCRIPT_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The gnuplot scripts the programs write next to their CSV files, and the pictures
 * gnuplot draws from them.
 *
 * Each figure is a script `NAME.plt` in the output folder that reads a CSV file of that same
 * folder (by its bare name, so the folder can be moved) and draws `NAME.png`. The data stay in
 * the CSV: a user restyles a figure by editing the script and running `gnuplot NAME.plt` in the
 * folder. The script is written from the CSV after the run: the writer reads the file once to
 * name the series (ports, flows, variables) the script draws, each as a plot clause of its own
 * that selects its rows by the series' key, so any key (even one with spaces) is drawn.
 *
 * The kinds (Kind) and the CSV columns each reads (columns counted from 1; a header line first
 * unless Figure::header is false):
 * - FCT_SLOWDOWN: FCT slowdown (FCT over the flow's FCT alone on an idle fabric) against flow
 *   size, one point per flow, both axes logarithmic, with the ideal (slowdown 1) drawn. The two
 *   values are gnuplot expressions given by the caller (Figure::x, Figure::y), e.g.
 *   `column(3)` and `column(8)`, or `column(7)/column(8)` for a file that has the two FCTs.
 * - QUEUE_DEPTH: queue depth over time, one line per (port, priority) that ever held a byte,
 *   from FabricMonitor's queue samples `time_ns,port,priority,queue_bytes`. The deepest
 *   MAX_SERIES series are drawn; the script's comment names those left out.
 * - PAUSE_GANTT: PFC pause intervals, one row per (port, priority) that was paused, one bar per
 *   interval, from FabricMonitor's `port,priority,start_ns,end_ns` (or the columns given in
 *   Figure::columns, as for PfcPauseTree's pause-tree.csv: PauseTreeGantt). The MAX_SERIES rows
 *   with the longest paused time are drawn.
 * - ITERATION_BREAKDOWN: one stacked bar per rank of its last iteration: compute, exposed
 *   communication, pipeline bubble (microseconds), from TrainingMonitor's iterations.csv
 *   (`rank,iteration,start_us,end_us,time_us,compute_us,communication_us,exposed_us,bubble_us`,
 *   and `job` with several jobs: Figure::job then selects one job's rows).
 * - CC_RATE: congestion-control variables over time, a panel per variable and a line per flow,
 *   from `time_us,flow,variable,value` (the incast example's cc.csv). The first MAX_SERIES
 *   flows (by first appearance) are drawn in each panel.
 *
 * Pictures are PNG (gnuplot's pngcairo terminal). Whether gnuplot is installed is checked on
 * PATH; Write and Draw are separate so a program without gnuplot still leaves its scripts.
 */
class FigureScript
{
  public:
    /** What a figure shows (see the class description for the columns each reads). */
    enum Kind
    {
        FCT_SLOWDOWN,        //!< slowdown against flow size, a point per flow
        QUEUE_DEPTH,         //!< queue bytes over time, a line per port and priority
        PAUSE_GANTT,         //!< pause intervals, a row per port and priority
        ITERATION_BREAKDOWN, //!< compute / exposed communication / bubble per rank
        CC_RATE,             //!< congestion-control variables over time, a line per flow
    };

    /// The most series (lines, Gantt rows, flows) a figure draws, so it stays readable.
    static constexpr uint32_t MAX_SERIES = 16;

    /** One figure: its kind, the CSV it reads and the name of its script and picture. */
    struct Figure
    {
        Kind kind;            //!< what it shows
        std::string csv;      //!< the CSV's file name, in the output folder
        std::string name;     //!< the script is name.plt, the picture name.png
        std::string title;    //!< the figure's title
        std::string x = "";   //!< FCT_SLOWDOWN: gnuplot expression of the flow size (bytes)
        std::string y = "";   //!< FCT_SLOWDOWN: gnuplot expression of the slowdown
        char separator = ','; //!< the CSV's column separator (' ' for whitespace)
        bool header = true;   //!< whether the file's first line names the columns
        /// ITERATION_BREAKDOWN: if not empty, only the rows of this job (the job column, the
        /// 10th, that TrainingMonitor adds with a jobs list), and their last iteration.
        std::string job = "";
        /// PAUSE_GANTT: the columns (from 1) of the port, priority, start_ns and end_ns, when
        /// they are not 1 to 4 (PfcPauseTree's pause-tree.csv: 3, 4, 5, 6); empty: 1 to 4.
        std::vector<uint32_t> columns = {};
    };

    /**
     * Write a figure's script, `dir/NAME.plt`, from its CSV `dir/CSV`.
     * @param dir the output folder holding the CSV.
     * @param figure the figure.
     * @return "" or one line saying what went wrong (the CSV cannot be read, has no header,
     *         the script cannot be written).
     */
    static std::string Write(const std::string& dir, const Figure& figure);

    /**
     * Write every figure's script and, when gnuplot is installed, draw each picture.
     * @param dir the output folder.
     * @param figures the figures.
     * @param drawn set to whether pictures were drawn (false: gnuplot is not installed).
     * @return "" or the first problem (a script not written, gnuplot failing on one).
     */
    static std::string WriteAndDraw(const std::string& dir,
                                    const std::vector<Figure>& figures,
                                    bool& drawn);

    /**
     * A line for a program's output naming the scripts written and whether pictures were drawn
     * (with the command that draws them when gnuplot is not installed).
     * @param dir the output folder.
     * @param figures the figures.
     * @param drawn whether the pictures were drawn.
     * @return the line, without a line break.
     */
    static std::string Describe(const std::string& dir,
                                const std::vector<Figure>& figures,
                                bool drawn);

    /**
     * @return the pause Gantt chart of PfcPauseTree's pause-tree.csv (a row per paused port and
     *         priority, its "child" column; a bar per pause), named pause-tree.
     */
    static Figure PauseTreeGantt();

    /**
     * @param program a program's name.
     * @return whether an executable of that name is on PATH.
     */
    static bool HaveProgram(const std::string& program);

    /**
     * Run gnuplot on a script, from the script's folder.
     * @param scriptPath the script.
     * @return "" or what went wrong (gnuplot's exit status and its messages).
     */
    static std::string RunGnuplot(const std::string& scriptPath);

    /**
     * @param text a text.
     * @return it as a gnuplot string literal: in double quotes, with backslashes and double
     *         quotes escaped.
     */
    static std::string Quote(const std::string& text);
};

} // namespace ns3

#endif /* FIGURE_SCRIPT_H */
