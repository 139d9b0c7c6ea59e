/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FABRIC_OPTIONS_H
#define FABRIC_OPTIONS_H

#include "figure-script.h"
#include "flow-statistics.h"
#include "pfc-pause-tree.h"
#include "program-options.h"
#include "roce-fabric.h"
#include "roce-topology-helper.h"

#include "ns3/data-rate.h"
#include "ns3/rdma-endpoint.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup llm-fabric
 * @brief The command-line options that the flow programs over a RoCE fabric share
 * (llm-fabric-incast, llm-fabric-leaf-spine), registered, checked and applied in one place.
 *
 * The options are --mtu (the RDMA MTU, 256 to 4096 bytes: ns3::RdmaQueuePair::Mtu), --cc (the
 * congestion control, an alias or the TypeId name of a subclass of ns3::RdmaCongestionOps:
 * ns3::RdmaEndpoint::CongestionControl), --fixedRate (ns3::RdmaCcFixedRate::Rate, with a
 * default the program chooses), --pfc (priority 3 lossless), --bufferSize, --kmin, --kmax and
 * --pmax (the switch MMU's Buffer and RED/ECN marking), --pcap (prefix of pcap files), --outDir
 * (created if missing), --seed (the RNG run) and --pauseTree (PFC forensics: PfcPauseTree's
 * pause-tree.csv, pause-storm-N.dot and pause-victims.csv in --outDir). A program registers
 * them with AddTo, parses its command line, checks its own options, then calls Apply; it
 * configures its topology helper with ConfigureSwitches, checks the built fabric with
 * CheckSwitches, installs the RDMA endpoints with InstallEndpoints and the pause tree with
 * InstallPauseTree, and after the run writes the tree's files with WritePauseTree.
 *
 * Every problem stops the program the same way (Fail): one line "program: --key: reason" on
 * standard error and exit status 2.
 */
class FabricOptions
{
  public:
    /**
     * Options with their defaults: MTU 1000, DCQCN, PFC on, a 12 MB buffer, Kmin 5 KB, Kmax
     * 200 KB, Pmax 0.01, no pcap, the current folder, run 1.
     * @param program the program's name, the first word of its error lines.
     */
    explicit FabricOptions(const std::string& program);

    /**
     * Change the switch defaults before AddTo (a program that reproduces another simulator's
     * settings): the buffer, ECN Kmin, Kmax (sizes such as "400KB") and Pmax.
     * @param buffer --bufferSize's default.
     * @param kmin --kmin's default.
     * @param kmax --kmax's default.
     * @param pmax --pmax's default.
     */
    void SetSwitchDefaults(const std::string& buffer,
                           const std::string& kmin,
                           const std::string& kmax,
                           double pmax);

    /**
     * Register the options (see the class description), in the order of the program's help.
     * @param cmd the program's command line.
     * @param fixedRateDefault what --fixedRate is when not given, for the help text.
     */
    void AddTo(ProgramOptions& cmd, const std::string& fixedRateDefault);

    /**
     * Check the parsed options and apply them: the congestion control's TypeId, the defaults of
     * ns3::RdmaCcFixedRate::Rate and ns3::RdmaQueuePair::Mtu, the RNG run, the output folder.
     * Fails (exit status 2) on an MTU out of range, an unknown congestion control or an output
     * folder that cannot be created.
     * @param fixedRate the rate of --cc=fixed when --fixedRate is not given.
     */
    void Apply(DataRate fixedRate);

    /**
     * Give the switches the buffer, ECN and PFC options and the ECMP seed base (--ecmpSeed);
     * fails on a size that does not parse.
     * @param topo the helper that will build the switches.
     */
    void ConfigureSwitches(RoceTopologyHelper& topo) const;

    /**
     * Check the built switches (RoceFabric::CheckSwitches); fails on an inconsistent buffer.
     * @param fabric the fabric.
     */
    void CheckSwitches(const RoceFabric& fabric) const;

    /**
     * @param fabric the fabric.
     * @return an RDMA endpoint with the chosen congestion control on every host, in host order.
     */
    std::vector<Ptr<RdmaEndpoint>> InstallEndpoints(const RoceFabric& fabric) const;

    /**
     * With --pauseTree, watch the fabric's pauses and flows (PfcPauseTree::Install); without
     * it nothing is connected.
     * @param fabric the built fabric.
     * @return the tree, or null without --pauseTree.
     */
    Ptr<PfcPauseTree> InstallPauseTree(const RoceFabric& fabric) const;

    /**
     * After the run (before Simulator::Destroy): finish a tree from InstallPauseTree and write
     * its files in the output folder; nothing for null. Fails if a file cannot be written.
     * @param tree the tree, or null.
     */
    void WritePauseTree(Ptr<PfcPauseTree> tree) const;

    /**
     * Write summary.json (FlowStatistics::SummaryJson) in the output folder; fails if it
     * cannot be written.
     * @param summary the finished run.
     */
    void WriteSummary(const FlowStatistics::FlowRunSummary& summary) const;

    /**
     * Write the figures' gnuplot scripts in the output folder from the CSV files there, and draw
     * their pictures when gnuplot is installed (FigureScript::WriteAndDraw); fails if a script
     * cannot be written or gnuplot fails on one.
     * @param figures the figures.
     * @return a line naming what was written (FigureScript::Describe), without a line break.
     */
    std::string WriteFigures(const std::vector<FigureScript::Figure>& figures) const;

    /**
     * Stop the program: "program: --key: reason" on standard error, exit status 2
     * (UsageError::Exit).
     * @param key the option, or the options, at fault.
     * @param reason why.
     */
    [[noreturn]] void Fail(const std::string& key, const std::string& reason) const;

    /** @return the RDMA MTU, bytes. */
    uint32_t GetMtu() const;
    /** @return the congestion control as given (alias or TypeId name). */
    const std::string& GetCongestionControl() const;
    /** @return true if priority 3 is lossless. */
    bool GetPfc() const;
    /** @return the prefix of pcap files; empty for none. */
    const std::string& GetPcap() const;
    /** @return the output folder. */
    const std::string& GetOutDir() const;
    /** @return true with --pauseTree. */
    bool GetPauseTree() const;

  private:
    std::string m_program;                //!< the program's name
    uint32_t m_mtu;                       //!< RDMA MTU
    std::string m_cc;                     //!< congestion control, as given
    TypeId m_ccType;                      //!< congestion control, resolved by Apply
    const ProgramOptions* m_cmd{nullptr}; //!< the command line it was added to
    DataRate m_fixedRate;                 //!< rate of --cc=fixed (0: the program's default)
    bool m_pfc;                           //!< priority 3 lossless
    std::string m_bufferSize;             //!< switch buffer
    std::string m_kmin;                   //!< ECN Kmin
    std::string m_kmax;                   //!< ECN Kmax
    double m_pmax;                        //!< ECN Pmax
    std::string m_pcap;                   //!< pcap prefix
    std::string m_outDir;                 //!< output folder
    uint32_t m_seed;                      //!< RNG run
    uint32_t m_ecmpSeed;                  //!< base of the switches' ECMP hash seeds
    bool m_pauseTree;                     //!< write the PFC pause tree
};

} // namespace ns3

#endif /* FABRIC_OPTIONS_H */
