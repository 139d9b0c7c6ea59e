/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CC_TEST_UTIL_H
#define CC_TEST_UTIL_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <string>
#include <vector>

namespace llmfabric
{
namespace tests
{

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

} // namespace tests
} // namespace llmfabric

#endif /* CC_TEST_UTIL_H */
