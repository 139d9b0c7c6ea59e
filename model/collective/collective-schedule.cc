/*
 * Copyright (c) 2026 llm-fabric authors
 *
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-schedule.h"

#include <algorithm>

namespace ns3
{

namespace
{

/**
 * Add bytes to a rank's tally of a peer. Schedules visit the same peer in runs (a ring sends to
 * one neighbour at every step), so only the last entry is looked at; Merge adds up the rest.
 * @param tally the rank's tally.
 * @param peer the peer.
 * @param bytes the bytes.
 */
void
Tally(std::vector<CollectivePeerBytes>& tally, uint32_t peer, uint64_t bytes)
{
    if (!tally.empty() && tally.back().peer == peer)
    {
        tally.back().bytes += bytes;
        return;
    }
    tally.push_back({peer, bytes});
}

/**
 * Sort a rank's tally by peer and merge the entries of one peer.
 * @param tally the tally.
 */
void
Merge(std::vector<CollectivePeerBytes>& tally)
{
    std::stable_sort(
        tally.begin(),
        tally.end(),
        [](const CollectivePeerBytes& a, const CollectivePeerBytes& b) { return a.peer < b.peer; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < tally.size(); ++i)
    {
        if (out > 0 && tally[out - 1].peer == tally[i].peer)
        {
            tally[out - 1].bytes += tally[i].bytes;
        }
        else
        {
            tally[out++] = tally[i];
        }
    }
    tally.resize(out);
    tally.shrink_to_fit();
}

} // namespace

CollectiveSchedule::CollectiveSchedule(std::vector<CollectiveTransferSpec>& transfers)
    : m_transfers(&transfers),
      m_traffic(nullptr)
{
}

CollectiveSchedule::CollectiveSchedule(uint32_t n, CollectiveTraffic& traffic)
    : m_transfers(nullptr),
      m_traffic(&traffic)
{
    traffic = CollectiveTraffic();
    traffic.sent.resize(n);
    traffic.received.resize(n);
}

void
CollectiveSchedule::Add(uint32_t src,
                        uint32_t dst,
                        uint64_t offset,
                        uint64_t bytes,
                        uint32_t step,
                        bool reduce)
{
    if (bytes == 0)
    {
        return;
    }
    if (m_traffic)
    {
        Tally(m_traffic->sent[src], dst, bytes);
        Tally(m_traffic->received[dst], src, bytes);
        return;
    }
    CollectiveTransferSpec transfer;
    transfer.src = src;
    transfer.dst = dst;
    transfer.offset = offset;
    transfer.bytes = bytes;
    transfer.step = step;
    transfer.reduce = reduce;
    m_transfers->push_back(transfer);
}

void
CollectiveSchedule::Finish()
{
    if (!m_traffic)
    {
        return;
    }
    for (auto& tally : m_traffic->sent)
    {
        Merge(tally);
    }
    for (auto& tally : m_traffic->received)
    {
        Merge(tally);
    }
}

} // namespace ns3
