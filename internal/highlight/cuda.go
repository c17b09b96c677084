package highlight

import (
	"regexp"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// CUDA is a chroma lexer for CUDA C++: the C++ lexer's rules with CUDA's
// qualifiers, built-in variables and types, the <<< >>> launch syntax, and the
// names of the CUDA runtime and driver APIs, NCCL and NVML as built-ins.
// Chroma ships none; init registers it under cuda and cu.
var CUDA = chroma.MustNewLexer(
	&chroma.Config{
		Name:      "CUDA",
		Aliases:   []string{"cuda", "cu"},
		Filenames: []string{"*.cu", "*.cuh"},
		MimeTypes: []string{"text/x-cuda"},
		EnsureNL:  true,
	},
	cudaRules,
)

func init() { lexers.Register(CUDA) }

// cudaRules prepends CUDA's names to the C++ lexer's statements. Order
// matters: types and constants are tried before the API-name pattern that
// would otherwise claim cudaError_t and cudaSuccess as functions.
func cudaRules() chroma.Rules {
	rules := lexers.Get("cpp").(*chroma.RegexLexer).MustRules().Clone()
	cuda := []chroma.Rule{
		{Pattern: `<<<|>>>`, Type: chroma.Punctuation},
		{Pattern: `(__global__|__device__|__host__|__shared__|__constant__|__managed__|__restrict__|__noinline__|__forceinline__|__launch_bounds__|__grid_constant__|__syncthreads|__syncwarp)\b`, Type: chroma.KeywordReserved},
		{Pattern: `(threadIdx|blockIdx|blockDim|gridDim|warpSize)\b`, Type: chroma.NameBuiltinPseudo},
		{Pattern: `(dim3|cudaError_t|cudaStream_t|cudaEvent_t|cudaDeviceProp|cudaPointerAttributes|cudaMemcpyKind|cudaIpcMemHandle_t|cudaIpcEventHandle_t|cudaDeviceP2PAttr|cudaGraph_t|cudaGraphExec_t|CUresult|CUdevice|CUcontext|CUdeviceptr|CUstream|CUevent|CUmodule|CUfunction|ncclComm_t|ncclResult_t|ncclUniqueId|ncclDataType_t|ncclRedOp_t|nvmlReturn_t|nvmlDevice_t|nvmlGpuP2PStatus_t|nvmlGpuP2PCapsIndex_t|nvmlGpuTopologyLevel_t|nvmlPciInfo_t|half|__half|__nv_bfloat16|(?:char|uchar|short|ushort|int|uint|long|ulong|longlong|ulonglong|float|double)[1-4])\b`, Type: chroma.KeywordType},
		{Pattern: `(cudaSuccess|cudaError[A-Z]\w*|cudaMemcpy(?:HostToHost|HostToDevice|DeviceToHost|DeviceToDevice|Default)|cudaDevAttr\w+|cudaDevP2PAttr\w+|cudaStream(?:Default|NonBlocking)|CUDA_[A-Z0-9_]+|CU_[A-Z0-9_]+|NCCL_[A-Z0-9_]+|NVML_[A-Z0-9_]+|nccl(?:Success|Sum|Prod|Max|Min|Avg|Float\w*|Half|Bfloat16|Int\w*|Uint\w*))\b`, Type: chroma.NameConstant},
		{Pattern: `((?:cuda|cu|nccl|nvml|cublas|cufft|curand|cusparse|cusolver)[A-Z]\w*)\b`, Type: chroma.NameBuiltin},
	}
	rules["statements"] = append(cuda, rules["statements"]...)
	return rules
}

// usesCUDA tells whether C or C++ source is really CUDA, so that a fence
// tagged cpp still gets CUDA's names highlighted.
var usesCUDA = regexp.MustCompile(`__global__|__device__|<<<|#include\s*[<"](?:cuda|nccl|nvml)|\b(?:cuda|cu|nccl|nvml)[A-Z]\w*\s*\(`).MatchString
