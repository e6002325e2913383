/**
 * @file spill.hpp
 * @brief The spill layer: `devcol::spill_manager`, `devcol::spill_lock`, `devcol::spillable`.
 */
#pragma once

#include <devcol/buffer/policy.hpp>
#include <devcol/spill/spill_lock.hpp>
#include <devcol/spill/spill_manager.hpp>
