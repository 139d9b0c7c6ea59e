/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CC_TEST_UTIL_H
#define CC_TEST_UTIL_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/test.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{
class RdmaEndpoint;
class RoceFabric;
} // namespace ns3

namespace llmfabric
{
namespace tests
{

/**
 * @ingroup llm-fabric-tests
 * Fix the fabric's random streams (from stream 1) and install an RDMA endpoint with a congestion
 * control on every host, as the congestion-control tests' runs do.
 * @param fabric the fabric.
 * @param cc the congestion control.
 * @return the endpoints, by host.
 */
std::vector<ns3::Ptr<ns3::RdmaEndpoint>> InstallCc(const ns3::RoceFabric& fabric, ns3::TypeId cc);

/**
 * @ingroup llm-fabric-tests
 * Build a star of hosts around one switch (every link with a 1 us delay, the switch with the
 * topology helper's defaults) and install a congestion control on every host (InstallCc).
 * @param hosts number of hosts.
 * @param rate the rate of every link.
 * @param cc the congestion control.
 * @param fabric receives the fabric.
 * @return the endpoints, by host.
 */
std::vector<ns3::Ptr<ns3::RdmaEndpoint>> MakeCcStar(uint32_t hosts,
                                                    ns3::DataRate rate,
                                                    ns3::TypeId cc,
                                                    ns3::RoceFabric& fabric);

/**
 * @ingroup llm-fabric-tests
 * An incast run of a congestion control: senders write one message each to one receiver
 * through one switch (as llm-fabric-incast does), with the switch marking the congestion control
 * states (RdmaHelper::CompleteEcnOptions, as the program does).
 */
struct CcIncastConfig
{
    ns3::TypeId cc;                          //!< the congestion control
    uint32_t senders{16};                    //!< senders
    uint64_t bytes{250000};                  //!< message size per sender
    ns3::DataRate rate{"100Gbps"};           //!< every link's rate
    ns3::Time delay{ns3::MicroSeconds(1)};   //!< every link's delay
    uint32_t mtu{1000};                      //!< RDMA MTU
    bool pfc{true};                          //!< priority 3 lossless
    std::string buffer{"12MB"};              //!< switch buffer
    ns3::Time limit{ns3::MilliSeconds(200)}; //!< simulated time allowed
};

/**
 * @ingroup llm-fabric-tests
 * What an incast run gives.
 */
struct CcIncastResult
{
    uint32_t done{0};           //!< flows whose message was acknowledged
    std::vector<int64_t> endPs; //!< per flow, completion time in ps (-1: not done)
    std::vector<uint64_t> sent; //!< per flow, data packets sent
    uint64_t retransmitted{0};  //!< data packets sent again
    uint64_t timeouts{0};       //!< retransmission timer expiries
    uint64_t drops{0};          //!< switch drops
    uint64_t ecnMarks{0};       //!< switch CE marks
    uint64_t pauses{0};         //!< PFC pause frames sent by the switch
    uint64_t events{0};         //!< simulator events
    uint32_t kminBytes{0};      //!< the receiver port's Kmin, bytes
    uint32_t kmaxBytes{0};      //!< its Kmax
    double pmax{0};             //!< Pmax
};

/**
 * @ingroup llm-fabric-tests
 * Run an incast (and destroy the simulation and reset the defaults after it).
 * @param config the run.
 * @return its outcome.
 */
CcIncastResult RunCcIncast(const CcIncastConfig& config);

/**
 * @ingroup llm-fabric-tests
 * The ECN marking the switch's receiver port should have in an incast run.
 */
struct CcIncastMarking
{
    uint32_t kminBytes{5000};   //!< Kmin (default: the program's 5 KB, no marking stated)
    uint32_t kmaxBytes{200000}; //!< Kmax (default: the program's 200 KB)
    double pmax{0.01};          //!< Pmax (default: the program's 1 %)
    bool marks{false};          //!< whether the run with PFC must have marked packets
};

/**
 * @ingroup llm-fabric-tests
 * The 16-to-1 incast test every window- or rate-based congestion control passes: three runs of
 * the default CcIncastConfig with the congestion control, (1) with PFC: the switch marks as
 * expected, every flow finishes, no drop, no packet resent, no faster than the line rate allows;
 * (2) without PFC and a 1 MB buffer: every flow finishes although the switch dropped and the
 * senders resent; (3) the first run again: identical completion times, packet counts, marks and
 * events.
 *
 * The line-rate bound: the bottleneck carries 16 x 250 KB = 4,000,000 payload bytes in
 * 1000-byte packets of 1082 wire bytes, 4000 x 86.56 ns = 346.24 us at least. The drops: the 17
 * ports' reserved bytes (4200 x 8 priorities x 17 = 571,200 B) leave a lossy shared pool of
 * 428,800 B of the 1 MB buffer, less than the first round trip's burst of each congestion
 * control (given where each suite adds the test).
 */
class CcIncastTestCase : public ns3::TestCase
{
  public:
    /**
     * Constructor.
     * @param name the test's name.
     * @param cc the congestion control.
     * @param marking the marking expected.
     */
    CcIncastTestCase(const std::string& name, ns3::TypeId cc, CcIncastMarking marking);

  private:
    void DoRun() override;

    ns3::TypeId m_cc;          //!< the congestion control
    CcIncastMarking m_marking; //!< the marking expected
};

} // namespace tests
} // namespace llmfabric

#endif /* CC_TEST_UTIL_H */
