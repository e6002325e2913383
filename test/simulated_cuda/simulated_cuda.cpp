// The simulated CUDA runtime (see simulated_cuda.hpp): the CUDA runtime functions devcol calls,
// defined over host memory, linked instead of cudart. The types come from the toolkit's own
// cuda_runtime_api.h, so devcol compiles against the same declarations as with nvcc.
#include "simulated_cuda.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

// A vector clock, indexed by agent (0 is the host, then one per stream).
using vector_clock = std::vector<std::uint64_t>;
constexpr std::uint32_t host_agent = 0;

void join(vector_clock& into, vector_clock const& from) {
  if (into.size() < from.size()) { into.resize(from.size(), 0); }
  for (std::size_t i = 0; i < from.size(); ++i) { into[i] = std::max(into[i], from[i]); }
}
std::uint64_t component(vector_clock const& c, std::uint32_t agent) { return agent < c.size() ? c[agent] : 0; }
std::uint64_t tick(vector_clock& c, std::uint32_t agent) {
  if (c.size() <= agent) { c.resize(agent + 1, 0); }
  return ++c[agent];
}

struct sim_stream {
  std::uint32_t agent;
  int device;
  bool alive = true;
  vector_clock clock;
};

struct sim_event {
  int device;
  bool alive = true;
  vector_clock clock;  // the work it captured at its last record (empty: never recorded)
};

// One access to a byte range, by an agent at its own clock's value then.
struct access_record {
  std::uintptr_t begin;
  std::uintptr_t end;
  std::uint32_t agent;
  std::uint64_t epoch;
  bool write;
  char const* what;  // the call or "a kernel"
};

enum class memory_kind { device, stream_ordered, pinned_host, managed };

struct sim_allocation {
  std::byte* base;
  std::size_t size;
  int device;
  memory_kind kind;
  bool freed = false;
  std::uint32_t freed_by = 0;
  std::vector<access_record> accesses;
};

class runtime {
 public:
  runtime() {
    agent_names_.emplace_back("the host");
    for (int d = 0; d < devcol_sim::device_count; ++d) {
      default_streams_.push_back(new_stream(d, "the default stream of device " + std::to_string(d)));
    }
  }
  runtime(runtime const&) = delete;
  runtime& operator=(runtime const&) = delete;
  ~runtime() = delete;

  std::mutex mutex;
  static thread_local int current_device;
  static thread_local cudaError_t last_error;

  cudaError_t fail(cudaError_t status) {
    last_error = status;
    return status;
  }
  // Printed at once too: a report may be followed by devcol asserting on the failed call.
  void report(std::string message) {
    reports_.push_back("simulated CUDA: " + std::move(message));
    std::fprintf(stderr, "%s\n", reports_.back().c_str());
  }
  std::vector<std::string> take_reports() { return std::exchange(reports_, {}); }

  std::string const& name(std::uint32_t agent) const { return agent_names_[agent]; }

  // --- streams and events -------------------------------------------------------------------------

  sim_stream* new_stream(int device, std::string name) {
    auto const agent = static_cast<std::uint32_t>(agent_names_.size());
    agent_names_.push_back(std::move(name));
    streams_.push_back(std::make_unique<sim_stream>(sim_stream{agent, device, true, {}}));
    known_streams_.insert(streams_.back().get());
    return streams_.back().get();
  }
  sim_stream* create_stream() {
    int const device = current_device;
    return new_stream(device, "stream " + std::to_string(agent_names_.size()) + " (device " + std::to_string(device) + ")");
  }

  // The stream a handle names, if the call may queue work on it now; null after a report otherwise.
  sim_stream* stream_for(cudaStream_t handle, char const* call) {
    if (handle == nullptr || handle == cudaStreamLegacy || handle == cudaStreamPerThread) {
      return default_streams_[static_cast<std::size_t>(current_device)];
    }
    auto* s = reinterpret_cast<sim_stream*>(handle);
    if (!known_streams_.contains(s)) {
      report(std::string(call) + " on an unknown stream handle");
      return nullptr;
    }
    if (!s->alive) {
      report(std::string(call) + " on " + name(s->agent) + " after cudaStreamDestroy");
      return nullptr;
    }
    if (s->device != current_device) {
      report(std::string(call) + " on " + name(s->agent) + " while device " + std::to_string(current_device) +
             " is current");
      return nullptr;
    }
    return s;
  }
  // Like stream_for, for the calls CUDA allows from any device (synchronisation, queries).
  sim_stream* stream_any_device(cudaStream_t handle, char const* call) {
    if (handle == nullptr || handle == cudaStreamLegacy || handle == cudaStreamPerThread) {
      return default_streams_[static_cast<std::size_t>(current_device)];
    }
    auto* s = reinterpret_cast<sim_stream*>(handle);
    if (!known_streams_.contains(s) || !s->alive) {
      report(std::string(call) + (known_streams_.contains(s) ? " on " + name(s->agent) + " after cudaStreamDestroy"
                                                               : std::string(" on an unknown stream handle")));
      return nullptr;
    }
    return s;
  }
  // Queues one operation on `s`: ordered after everything the host has seen, and after what came
  // before on `s`. Returns the operation's epoch on `s`.
  std::uint64_t enqueue(sim_stream& s) {
    join(s.clock, host_clock_);
    return tick(s.clock, s.agent);
  }
  // A host wait for device work: counted, then the host is ordered after `c`.
  void host_waits(vector_clock const& c) {
    ++costs_.synchronizations;
    host_joins(c);
  }
  void host_joins(vector_clock const& c) {
    join(host_clock_, c);
    tick(host_clock_, host_agent);
  }
  // The host waits for every stream of `device` (cudaDeviceSynchronize, cudaFree).
  void synchronize_device(int device) {
    ++costs_.synchronizations;
    join_device(device);
  }
  void join_device(int device) {
    for (auto const& s : streams_) {
      if (s->device == device) { join(host_clock_, s->clock); }
    }
    tick(host_clock_, host_agent);
  }
  void synchronize_all() {
    ++costs_.synchronizations;
    for (int d = 0; d < devcol_sim::device_count; ++d) { join_device(d); }
  }
  devcol_sim::costs take_costs() { return std::exchange(costs_, {}); }

  sim_event* create_event() {
    events_.push_back(std::make_unique<sim_event>(sim_event{current_device, true, {}}));
    known_events_.insert(events_.back().get());
    return events_.back().get();
  }
  sim_event* event_for(cudaEvent_t handle, char const* call) {
    auto* e = reinterpret_cast<sim_event*>(handle);
    if (handle == nullptr || !known_events_.contains(e)) {
      report(std::string(call) + " on an unknown event handle");
      return nullptr;
    }
    if (!e->alive) {
      report(std::string(call) + " on an event after cudaEventDestroy");
      return nullptr;
    }
    return e;
  }

  // --- memory -------------------------------------------------------------------------------------

  void* allocate(std::size_t bytes, memory_kind kind) {
    std::size_t const rounded = (bytes + 255) / 256 * 256;
    if (bytes > (std::size_t{1} << 40)) { return nullptr; }  // no simulated device is that large
    void* p = std::aligned_alloc(256, rounded);
    if (p == nullptr) { return nullptr; }
    auto const address = reinterpret_cast<std::uintptr_t>(p);
    // An address the host heap hands out again: the quarantined allocation that held it is gone.
    allocations_.erase(address);
    allocations_.emplace(address, std::make_unique<sim_allocation>(
                                      sim_allocation{static_cast<std::byte*>(p), bytes, current_device, kind, false, 0, {}}));
    ++live_;
    ++costs_.allocations;
    return p;
  }
  sim_allocation* find(void const* p) {
    auto const address = reinterpret_cast<std::uintptr_t>(p);
    auto it = allocations_.upper_bound(address);
    if (it == allocations_.begin()) { return nullptr; }
    --it;
    auto* a = it->second.get();
    std::uintptr_t const base = it->first;
    return address < base + std::max<std::size_t>(a->size, 1) ? a : nullptr;
  }
  // Frees `a` as `agent` did at `clock`; the memory is kept (quarantined) so later uses are caught.
  void release(sim_allocation& a, std::uint32_t agent) {
    a.freed = true;
    a.freed_by = agent;
    a.accesses.clear();
    --live_;
    quarantined_bytes_ += a.size;
    quarantine_.push_back(reinterpret_cast<std::uintptr_t>(a.base));
    while (quarantined_bytes_ > (std::size_t{64} << 20) && !quarantine_.empty()) {
      auto it = allocations_.find(quarantine_.front());
      quarantine_.pop_front();
      if (it == allocations_.end() || !it->second->freed) { continue; }
      quarantined_bytes_ -= it->second->size;
      std::free(it->second->base);
      allocations_.erase(it);
    }
  }

  // Checks and records an access by `agent` (whose clock is `clock`) to [p, p + bytes).
  // Returns false when the memory is freed or the bytes run past an allocation.
  bool touch(std::uint32_t agent, vector_clock const& clock, void const* p, std::size_t bytes, bool write, char const* what) {
    if (bytes == 0) { return true; }
    auto const begin = reinterpret_cast<std::uintptr_t>(p);
    std::vector<access_record>* records = &host_memory_;
    if (sim_allocation* a = find(p); a != nullptr) {
      if (a->freed) {
        report(std::string(what) + " on " + name(agent) + " touches memory freed by " + name(a->freed_by));
        return false;
      }
      if (begin + bytes > reinterpret_cast<std::uintptr_t>(a->base) + a->size) {
        report(std::string(what) + " on " + name(agent) + " runs past the end of an allocation of " +
               std::to_string(a->size) + " bytes");
        return false;
      }
      bool const device_memory = a->kind == memory_kind::device || a->kind == memory_kind::stream_ordered;
      if (device_memory && a->device != current_device && agent != host_agent) {
        report(std::string(what) + " on " + name(agent) + " touches memory of device " + std::to_string(a->device) +
               " while device " + std::to_string(current_device) + " is current");
      }
      records = &a->accesses;
    } else if (agent == host_agent && !std::any_of(host_memory_.begin(), host_memory_.end(), [&](auto const& r) {
                 return r.begin < begin + bytes && begin < r.end;
               })) {
      return true;  // host memory no stream has touched
    }
    std::uintptr_t const base = records == &host_memory_ ? 0 : reinterpret_cast<std::uintptr_t>(find(p)->base);
    check_and_record(*records, access_record{begin, begin + bytes, agent, component(clock, agent), write, what}, clock, base);
    return true;
  }

  // `base`: the allocation's address, to name bytes by offset (0 for host memory: by address).
  void check_and_record(std::vector<access_record>& records, access_record now, vector_clock const& clock, std::uintptr_t base) {
    for (auto const& r : records) {
      bool const overlaps = r.begin < now.end && now.begin < r.end;
      if (overlaps && (r.write || now.write) && component(clock, r.agent) < r.epoch) {
        std::ostringstream out;
        out << "race: " << now.what << " on " << name(now.agent) << (now.write ? " writes" : " reads") << " bytes ["
            << std::max(r.begin, now.begin) - base << ", " << std::min(r.end, now.end) - base << ")"
            << (base != 0 ? " of an allocation" : " of host memory") << " that " << r.what << " on " << name(r.agent)
            << (r.write ? " wrote" : " read") << " with no ordering edge between them";
        report(out.str());
        break;
      }
    }
    // Forget what needs no more checks: accesses the host has seen complete (everything queued or
    // done from now on follows them), and accesses this one follows and covers (a later access
    // ordered after this one is ordered after them; a write record stays behind a read, which later
    // reads are not checked against).
    std::erase_if(records, [&](access_record const& r) {
      if (component(host_clock_, r.agent) >= r.epoch) { return true; }
      bool const covered = now.begin <= r.begin && r.end <= now.end;
      return covered && component(clock, r.agent) >= r.epoch && (now.write || !r.write);
    });
    records.push_back(now);
  }

  // An access by the host, at a new point of its clock.
  void host_touch(void const* p, std::size_t bytes, bool write, char const* what) {
    tick(host_clock_, host_agent);
    (void)touch(host_agent, host_clock_, p, bytes, write, what);
  }

  std::size_t live() const { return live_; }

 private:
  std::vector<std::string> agent_names_;
  std::vector<std::unique_ptr<sim_stream>> streams_;  // never freed: a destroyed handle stays recognisable
  std::set<sim_stream*> known_streams_;
  std::vector<sim_stream*> default_streams_;
  std::vector<std::unique_ptr<sim_event>> events_;
  std::set<sim_event*> known_events_;
  vector_clock host_clock_{1};
  std::map<std::uintptr_t, std::unique_ptr<sim_allocation>> allocations_;
  std::deque<std::uintptr_t> quarantine_;
  std::size_t quarantined_bytes_ = 0;
  std::size_t live_ = 0;
  std::vector<access_record> host_memory_;  // pageable host memory that streams touched
  std::vector<std::string> reports_;
  devcol_sim::costs costs_;
};

thread_local int runtime::current_device = 0;
thread_local cudaError_t runtime::last_error = cudaSuccess;

runtime& sim() {
  // Never destroyed: devcol's static resources may free memory during static destruction, in any
  // order. What it holds stays reachable, so leak checkers do not count it.
  static runtime* const instance = new runtime;
  return *instance;
}

// Whether the runtime is shutting down (set_unloading): every call then fails as CUDA's do once
// the process has begun to exit, before the objects of static storage duration made earlier are
// destroyed.
std::atomic<bool> unloading{false};
#define DEVCOL_SIM_FAIL_IF_UNLOADING()                                                           \
  do {                                                                                           \
    if (unloading.load()) { return sim().fail(cudaErrorCudartUnloading); }                       \
  } while (0)

cudaError_t stream_ordered_allocate(void** ptr, std::size_t size, cudaStream_t stream, char const* call) {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, call);
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  (void)r.enqueue(*s);
  *ptr = r.allocate(size, memory_kind::stream_ordered);
  if (*ptr == nullptr) { return r.fail(cudaErrorMemoryAllocation); }
  // The allocation is a write by its stream: other streams must wait for it before use.
  (void)r.touch(s->agent, s->clock, *ptr, size, true, call);
  return cudaSuccess;
}

cudaError_t host_allocate(void** ptr, std::size_t size, memory_kind kind) {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  if (size == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  *ptr = r.allocate(size, kind);
  return *ptr == nullptr ? r.fail(cudaErrorMemoryAllocation) : cudaSuccess;
}

// The synchronous frees: CUDA's cudaFree and cudaFreeHost wait for the device's work first.
cudaError_t synchronous_free(void* ptr, bool host, char const* call) {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  if (ptr == nullptr) { return cudaSuccess; }
  sim_allocation* a = r.find(ptr);
  if (a == nullptr || a->base != ptr || a->freed || (a->kind == memory_kind::pinned_host) != host ||
      a->kind == memory_kind::stream_ordered) {
    r.report(std::string(call) + " of a pointer it did not allocate, or freed already");
    return r.fail(cudaErrorInvalidValue);
  }
  if (!host && a->device != runtime::current_device) {
    r.report(std::string(call) + " of memory of device " + std::to_string(a->device) + " while device " +
             std::to_string(runtime::current_device) + " is current");
    return r.fail(cudaErrorInvalidValue);
  }
  if (host) {
    r.synchronize_all();
  } else {
    r.synchronize_device(a->device);
  }
  r.host_touch(ptr, a->size, true, call);
  r.release(*a, host_agent);
  return cudaSuccess;
}

}  // namespace

namespace devcol_sim {

void set_unloading(bool on) { unloading.store(on); }

std::vector<std::string> take_reports() {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  return r.take_reports();
}
void host_read(void const* ptr, std::size_t bytes) {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  r.host_touch(ptr, bytes, false, "a host read");
}
void host_write(void const* ptr, std::size_t bytes) {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  r.host_touch(ptr, bytes, true, "a host write");
}
bool is_live_allocation(void const* ptr) {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_allocation const* a = r.find(ptr);
  return a != nullptr && !a->freed;
}
costs take_costs() {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  return r.take_costs();
}
std::size_t live_allocations() {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  return r.live();
}

}  // namespace devcol_sim

// --- the hooks devcol's executor calls under DEVCOL_SIMULATED_CUDA (column/detail/execution.hpp) ---

extern "C" cudaError_t devcol_simulated_cuda_launch(cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, "a kernel launch");
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  (void)r.enqueue(*s);
  return cudaSuccess;
}

extern "C" void devcol_simulated_cuda_access(cudaStream_t stream, void const* ptr, std::size_t bytes, int write) {
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, "a kernel");
  if (s == nullptr) { return; }
  (void)r.enqueue(*s);
  (void)r.touch(s->agent, s->clock, ptr, bytes, write != 0, "a kernel");
}

// --- the CUDA runtime API ---------------------------------------------------------------------------

extern "C" {

cudaError_t cudaGetLastError(void) { return std::exchange(runtime::last_error, cudaSuccess); }

char const* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorCudartUnloading: return "cudaErrorCudartUnloading";
    default: return "cudaErrorUnknown";
  }
}
char const* cudaGetErrorString(cudaError_t error) {
  return error == cudaSuccess ? "no error" : "simulated CUDA runtime error (see the simulated CUDA report)";
}

cudaError_t cudaGetDeviceCount(int* count) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  *count = devcol_sim::device_count;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  *device = runtime::current_device;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  if (device < 0 || device >= devcol_sim::device_count) { return sim().fail(cudaErrorInvalidDevice); }
  runtime::current_device = device;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize(void) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  r.synchronize_device(runtime::current_device);
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  *stream = reinterpret_cast<cudaStream_t>(r.create_stream());
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) {
    r.report("cudaStreamDestroy of a default stream");
    return r.fail(cudaErrorInvalidResourceHandle);
  }
  sim_stream* s = r.stream_for(stream, "cudaStreamDestroy");
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  s->alive = false;  // its queued work still completes, but nothing may be queued any more
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_any_device(stream, "cudaStreamSynchronize");
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  r.host_waits(s->clock);
  return cudaSuccess;
}
cudaError_t cudaStreamQuery(cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_any_device(stream, "cudaStreamQuery");
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  r.host_joins(s->clock);  // work runs at once: the query always finds it complete
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, "cudaStreamWaitEvent");
  sim_event* e = r.event_for(event, "cudaStreamWaitEvent");
  if (s == nullptr || e == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  (void)r.enqueue(*s);
  join(s->clock, e->clock);  // CUDA lets a stream wait for an event of another device
  return cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  *event = reinterpret_cast<cudaEvent_t>(r.create_event());
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_event* e = r.event_for(event, "cudaEventDestroy");
  if (e == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  e->alive = false;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, "cudaEventRecord");
  sim_event* e = r.event_for(event, "cudaEventRecord");
  if (s == nullptr || e == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  if (e->device != s->device) {
    r.report("cudaEventRecord of an event of device " + std::to_string(e->device) + " on " + r.name(s->agent));
    return r.fail(cudaErrorInvalidResourceHandle);
  }
  (void)r.enqueue(*s);
  e->clock = s->clock;
  return cudaSuccess;
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_event* e = r.event_for(event, "cudaEventQuery");
  if (e == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  r.host_joins(e->clock);
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_event* e = r.event_for(event, "cudaEventSynchronize");
  if (e == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  r.host_waits(e->clock);
  return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, size_t size) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  if (size == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  *ptr = r.allocate(size, memory_kind::device);
  return *ptr == nullptr ? r.fail(cudaErrorMemoryAllocation) : cudaSuccess;
}
cudaError_t cudaMallocManaged(void** ptr, size_t size, unsigned int) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  return host_allocate(ptr, size, memory_kind::managed);
}
cudaError_t cudaMallocHost(void** ptr, size_t size) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  return host_allocate(ptr, size, memory_kind::pinned_host);
}
cudaError_t cudaFree(void* ptr) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  return synchronous_free(ptr, false, "cudaFree");
}
cudaError_t cudaFreeHost(void* ptr) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  return synchronous_free(ptr, true, "cudaFreeHost");
}
cudaError_t cudaMallocAsync(void** ptr, size_t size, cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  return stream_ordered_allocate(ptr, size, stream, "cudaMallocAsync");
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, "cudaFreeAsync");
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  if (ptr == nullptr) { return cudaSuccess; }
  sim_allocation* a = r.find(ptr);
  if (a == nullptr || a->base != ptr || a->freed || a->kind != memory_kind::stream_ordered) {
    r.report("cudaFreeAsync on " + r.name(s->agent) + " of a pointer cudaMallocAsync did not return, or freed already");
    return r.fail(cudaErrorInvalidValue);
  }
  (void)r.enqueue(*s);
  if (r.touch(s->agent, s->clock, ptr, a->size, true, "cudaFreeAsync")) { r.release(*a, s->agent); }
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, void const* src, size_t count, cudaMemcpyKind, cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, "cudaMemcpyAsync");
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  (void)r.enqueue(*s);
  bool const ok = r.touch(s->agent, s->clock, src, count, false, "cudaMemcpyAsync") &&
                  r.touch(s->agent, s->clock, dst, count, true, "cudaMemcpyAsync");
  if (!ok) { return r.fail(cudaErrorInvalidValue); }
  if (count != 0) { std::memmove(dst, src, count); }
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* dst, int value, size_t count, cudaStream_t stream) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  sim_stream* s = r.stream_for(stream, "cudaMemsetAsync");
  if (s == nullptr) { return r.fail(cudaErrorInvalidResourceHandle); }
  (void)r.enqueue(*s);
  if (!r.touch(s->agent, s->clock, dst, count, true, "cudaMemsetAsync")) { return r.fail(cudaErrorInvalidValue); }
  if (count != 0) { std::memset(dst, value, count); }
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, void const* ptr) {
  DEVCOL_SIM_FAIL_IF_UNLOADING();
  auto& r = sim();
  std::lock_guard const lock(r.mutex);
  *attributes = cudaPointerAttributes{};
  sim_allocation const* a = r.find(ptr);
  if (a == nullptr || a->freed) {
    attributes->type = cudaMemoryTypeUnregistered;
    attributes->device = -2;
    attributes->hostPointer = const_cast<void*>(ptr);
    return cudaSuccess;
  }
  attributes->device = a->device;
  switch (a->kind) {
    case memory_kind::pinned_host:
      attributes->type = cudaMemoryTypeHost;
      attributes->hostPointer = const_cast<void*>(ptr);
      attributes->devicePointer = const_cast<void*>(ptr);
      break;
    case memory_kind::managed:
      attributes->type = cudaMemoryTypeManaged;
      attributes->hostPointer = const_cast<void*>(ptr);
      attributes->devicePointer = const_cast<void*>(ptr);
      break;
    default:
      attributes->type = cudaMemoryTypeDevice;
      attributes->devicePointer = const_cast<void*>(ptr);
      break;
  }
  return cudaSuccess;
}

}  // extern "C"
