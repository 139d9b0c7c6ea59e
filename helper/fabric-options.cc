/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fabric-options.h"

#include "rdma-helper.h"
#include "usage-error.h"

#include "ns3/config.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/simulator.h"
#include "ns3/type-id-alias.h"
#include "ns3/uinteger.h"

#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace ns3
{

FabricOptions::FabricOptions(const std::string& program)
    : m_program(program),
      m_mtu(1000),
      m_cc("dcqcn"),
      m_fixedRate(0),
      m_pfc(true),
      m_bufferSize("12MB"),
      m_kmin("5KB"),
      m_kmax("200KB"),
      m_pmax(0.01),
      m_outDir("."),
      m_seed(1),
      m_ecmpSeed(0),
      m_pauseTree(false)
{
}

void
FabricOptions::SetSwitchDefaults(const std::string& buffer,
                                 const std::string& kmin,
                                 const std::string& kmax,
                                 double pmax)
{
    m_bufferSize = buffer;
    m_kmin = kmin;
    m_kmax = kmax;
    m_pmax = pmax;
}

void
FabricOptions::AddTo(ProgramOptions& cmd, const std::string& fixedRateDefault)
{
    m_cmd = &cmd;
    cmd.AddValue("mtu", "RDMA MTU (256-4096)", m_mtu);
    cmd.AddValue("cc",
                 "Congestion control: " + TypeIdAlias::ListAliases(RdmaCongestionOps::GetTypeId()) +
                     ", or the TypeId name of a subclass of ns3::RdmaCongestionOps",
                 m_cc);
    cmd.AddValue("fixedRate",
                 "Rate of --cc=fixed (default: " + fixedRateDefault + ")",
                 m_fixedRate);
    cmd.AddValue("pfc", "1: priority 3 lossless (PFC); 0: lossy", m_pfc);
    cmd.AddValue("bufferSize", "Switch buffer", m_bufferSize);
    cmd.AddValue("kmin",
                 "ECN Kmin (default: the congestion control's, else " + m_kmin + ")",
                 m_kmin);
    cmd.AddValue("kmax",
                 "ECN Kmax (default: the congestion control's, else " + m_kmax + ")",
                 m_kmax);
    cmd.AddValue("pmax", "ECN Pmax (default: the congestion control's)", m_pmax);
    cmd.AddValue("pcap", "Prefix of pcap files; empty: none", m_pcap);
    cmd.AddValue("outDir", "Folder for summary.json and fct.csv", m_outDir);
    cmd.AddValue("seed", "RNG run number", m_seed);
    cmd.AddValue("ecmpSeed",
                 "Base of the switches' ECMP hash seeds (RoceTopologyHelper::SetEcmpSeedBase): "
                 "another value places the same flows on other equal-cost paths",
                 m_ecmpSeed);
    cmd.AddValue("pauseTree",
                 "1: write the PFC pause trees and victim flows (pause-tree.csv, "
                 "pause-storm-N.dot, pause-victims.csv)",
                 m_pauseTree);
}

void
FabricOptions::Apply(DataRate fixedRate)
{
    if (m_mtu < 256 || m_mtu > 4096)
    {
        Fail("mtu", "must be between 256 and 4096 (the RDMA payload per packet)");
    }
    std::string problem = RdmaHelper::LookupCongestionControl(m_cc, m_ccType);
    if (!problem.empty())
    {
        Fail("cc", problem);
    }
    problem = RdmaHelper::CheckCongestionControl(m_ccType);
    if (!problem.empty())
    {
        Fail("cc", problem);
    }
    // A congestion control that states its switch marking (DCTCP's step at K) sets what the
    // user did not give.
    std::array<bool, 3> given{m_cmd != nullptr && m_cmd->IsGiven("kmin"),
                              m_cmd != nullptr && m_cmd->IsGiven("kmax"),
                              m_cmd != nullptr && m_cmd->IsGiven("pmax")};
    DataRate referenceRate(0);
    RdmaHelper::CompleteEcnOptions(m_ccType, given, m_kmin, m_kmax, m_pmax, referenceRate);
    if (!(m_pmax >= 0.0 && m_pmax <= 1.0))
    {
        Fail("pmax", "must be between 0 and 1 (the marking probability at Kmax)");
    }
    if (referenceRate.GetBitRate() > 0)
    {
        // Its thresholds stand for a port of this rate, scaled on every port by its rate.
        Config::SetDefault("ns3::SwitchMmu::EcnReferenceRate", DataRateValue(referenceRate));
    }
    // --fixedRate is the default Rate of the fixed-rate algorithm (used only if it is chosen).
    Config::SetDefault("ns3::RdmaCcFixedRate::Rate",
                       DataRateValue(m_fixedRate.GetBitRate() ? m_fixedRate : fixedRate));
    RngSeedManager::SetRun(m_seed);
    std::error_code error;
    std::filesystem::create_directories(m_outDir, error);
    if (error)
    {
        Fail("outDir", "cannot create " + m_outDir + ": " + error.message());
    }
    // The output folder exists now: a pcap prefix inside it works, one into a missing folder
    // is refused here rather than failing (or aborting) when the first pcap is opened.
    problem = ProgramOptions::CheckPrefix(m_pcap);
    if (!problem.empty())
    {
        Fail("pcap", problem);
    }
    Config::SetDefault("ns3::RdmaQueuePair::Mtu", UintegerValue(m_mtu));
}

void
FabricOptions::ConfigureSwitches(RoceTopologyHelper& topo) const
{
    topo.SetEcmpSeedBase(m_ecmpSeed);
    std::string problem = topo.SetMmuBufferAndEcn(m_bufferSize, m_kmin, m_kmax, m_pmax, m_pfc);
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax/pmax", problem);
    }
}

void
FabricOptions::CheckSwitches(const RoceFabric& fabric) const
{
    std::string problem = fabric.CheckSwitches();
    if (!problem.empty())
    {
        Fail("bufferSize/kmin/kmax/pmax", problem);
    }
}

std::vector<Ptr<RdmaEndpoint>>
FabricOptions::InstallEndpoints(const RoceFabric& fabric) const
{
    RdmaHelper rdma;
    rdma.SetEndpointAttribute("CongestionControl", TypeIdValue(m_ccType));
    return rdma.Install(fabric);
}

void
FabricOptions::WriteSummary(const FlowStatistics::FlowRunSummary& summary) const
{
    std::ofstream json(m_outDir + "/summary.json");
    json << FlowStatistics::SummaryJson(summary);
    if (!json)
    {
        Fail("outDir", "cannot write " + m_outDir + "/summary.json");
    }
}

std::string
FabricOptions::WriteFigures(const std::vector<FigureScript::Figure>& figures) const
{
    bool drawn = false;
    std::string problem = FigureScript::WriteAndDraw(m_outDir, figures, drawn);
    if (!problem.empty())
    {
        Fail("outDir", problem);
    }
    return FigureScript::Describe(m_outDir, figures, drawn);
}

void
FabricOptions::Fail(const std::string& key, const std::string& reason) const
{
    UsageError::Exit(m_program, key, reason);
}

uint32_t
FabricOptions::GetMtu() const
{
    return m_mtu;
}

const std::string&
FabricOptions::GetCongestionControl() const
{
    return m_cc;
}

bool
FabricOptions::GetPfc() const
{
    return m_pfc;
}

const std::string&
FabricOptions::GetPcap() const
{
    return m_pcap;
}

const std::string&
FabricOptions::GetOutDir() const
{
    return m_outDir;
}

bool
FabricOptions::GetPauseTree() const
{
    return m_pauseTree;
}

Ptr<PfcPauseTree>
FabricOptions::InstallPauseTree(const RoceFabric& fabric) const
{
    if (!m_pauseTree)
    {
        return nullptr;
    }
    Ptr<PfcPauseTree> tree = CreateObject<PfcPauseTree>();
    tree->Install(fabric);
    return tree;
}

void
FabricOptions::WritePauseTree(Ptr<PfcPauseTree> tree) const
{
    if (!tree)
    {
        return;
    }
    tree->Finish();
    std::string failed = tree->WriteFiles(m_outDir);
    if (!failed.empty())
    {
        Fail("outDir", "cannot write " + failed);
    }
    std::cout << WriteFigures({FigureScript::PauseTreeGantt()}) << std::endl;
}

} // namespace ns3
