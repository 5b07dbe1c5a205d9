#include "guard_pages.h"

#include <cuda.h>  // the driver's types only: its calls are looked up through the runtime
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "harness/cuda_check.h"

namespace grading::guard_pages {
namespace {

struct DriverVmm {
    PFN_cuDeviceGet_v2000 deviceGet = nullptr;
    PFN_cuDeviceGetAttribute_v2000 deviceAttribute = nullptr;
    PFN_cuMemGetAllocationGranularity_v10020 granularity = nullptr;
    PFN_cuMemAddressReserve_v10020 reserve = nullptr;
    PFN_cuMemAddressFree_v10020 addressFree = nullptr;
    PFN_cuMemCreate_v10020 create = nullptr;
    PFN_cuMemRelease_v10020 release = nullptr;
    PFN_cuMemMap_v10020 map = nullptr;
    PFN_cuMemUnmap_v10020 unmap = nullptr;
    PFN_cuMemSetAccess_v10020 setAccess = nullptr;
    int device = 0;
    size_t granule = 0;
    std::string unavailable;  // why there are no guard pages; empty when there are
};

template <class Fn>
bool driverEntry(const char* symbol, Fn* fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    // 12000: the ABI of CUDA 12.0, which every call used here has had since 10.2.
    const cudaError_t err = cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &found);
    if (err != cudaSuccess || found != cudaDriverEntryPointSuccess || p == nullptr) {
        cudaGetLastError();  // a missing symbol is an answer, not a sticky error
        return false;
    }
    *fn = reinterpret_cast<Fn>(p);
    return true;
}

CUmemAllocationProp allocationProp(int device) {
    CUmemAllocationProp prop;
    std::memset(&prop, 0, sizeof(prop));
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = device;
    return prop;
}

DriverVmm load() {
    DriverVmm a;
    CUDA_TRY(cudaFree(nullptr));  // the runtime's context first: the driver calls below use its device
    CUDA_TRY(cudaGetDevice(&a.device));
    if (!driverEntry("cuDeviceGet", &a.deviceGet) || !driverEntry("cuDeviceGetAttribute", &a.deviceAttribute) ||
        !driverEntry("cuMemGetAllocationGranularity", &a.granularity) ||
        !driverEntry("cuMemAddressReserve", &a.reserve) || !driverEntry("cuMemAddressFree", &a.addressFree) ||
        !driverEntry("cuMemCreate", &a.create) || !driverEntry("cuMemRelease", &a.release) ||
        !driverEntry("cuMemMap", &a.map) || !driverEntry("cuMemUnmap", &a.unmap) ||
        !driverEntry("cuMemSetAccess", &a.setAccess)) {
        a.unavailable = "the driver offers no virtual memory calls";
        return a;
    }
    CUdevice dev = 0;
    int supported = 0;
    if (a.deviceGet(&dev, a.device) != CUDA_SUCCESS ||
        a.deviceAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev) != CUDA_SUCCESS ||
        supported == 0) {
        a.unavailable = "the device does not support virtual memory management";
        return a;
    }
    const CUmemAllocationProp prop = allocationProp(a.device);
    if (a.granularity(&a.granule, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS || a.granule == 0) {
        a.unavailable = "the driver gave no allocation granularity";
        a.granule = 0;
    }
    return a;
}

const DriverVmm& vmm() {
    static const DriverVmm api = [] {
        DriverVmm a = load();
        if (!a.unavailable.empty()) {
            std::fprintf(stderr, "note: no guard pages after the buffers that ask for them (%s): a read past one "
                                 "is not caught\n",
                         a.unavailable.c_str());
        }
        return a;
    }();
    return api;
}

void driverTry(CUresult rc, const std::string& what) {
    if (rc != CUDA_SUCCESS) throw std::runtime_error(what + " failed: CUresult " + std::to_string(static_cast<int>(rc)));
}

}  // namespace

size_t granule() { return vmm().granule; }

unsigned char* map(size_t mappedBytes, size_t reservedBytes, const std::string& forWhat) {
    const DriverVmm& api = vmm();
    CUdeviceptr va = 0;
    driverTry(api.reserve(&va, reservedBytes, 0, 0, 0), "cuMemAddressReserve for " + forWhat);
    const CUmemAllocationProp prop = allocationProp(api.device);
    CUmemGenericAllocationHandle handle = 0;
    CUresult rc = api.create(&handle, mappedBytes, &prop, 0);
    if (rc == CUDA_SUCCESS) {
        rc = api.map(va, mappedBytes, 0, handle, 0);
        api.release(handle);  // the mapping keeps the memory alive
    }
    if (rc == CUDA_SUCCESS) {
        CUmemAccessDesc access;
        std::memset(&access, 0, sizeof(access));
        access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        access.location.id = api.device;
        access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        rc = api.setAccess(va, mappedBytes, &access, 1);
        if (rc != CUDA_SUCCESS) api.unmap(va, mappedBytes);
    }
    if (rc != CUDA_SUCCESS) {
        api.addressFree(va, reservedBytes);
        driverTry(rc, "mapping " + std::to_string(mappedBytes) + " bytes for " + forWhat);
    }
    return reinterpret_cast<unsigned char*>(static_cast<uintptr_t>(va));
}

void unmap(unsigned char* base, size_t mappedBytes, size_t reservedBytes) {
    const DriverVmm& api = vmm();
    const CUdeviceptr va = static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(base));
    api.unmap(va, mappedBytes);
    api.addressFree(va, reservedBytes);
}

}  // namespace grading::guard_pages
