package cuda

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// Without the driver Open says what dlopen said; with it, cuInit runs.
func TestOpen(t *testing.T) {
	lib, err := Open()
	if err != nil {
		if !strings.Contains(err.Error(), "libcuda.so.1") {
			t.Errorf("error %q does not name the library", err)
		}
		return
	}
	if err := lib.Init(); err != nil {
		t.Logf("libcuda.so.1 is here but cuInit failed: %v", err)
	}
}

func TestErrorName(t *testing.T) {
	err := fmt.Errorf("enable: %w", &Error{Call: "cuCtxEnablePeerAccess", Code: 711, Name: "CUDA_ERROR_TOO_MANY_PEERS"})
	if got := ErrorName(err); got != "CUDA_ERROR_TOO_MANY_PEERS" {
		t.Errorf("ErrorName = %q", got)
	}
	if !strings.HasSuffix(err.Error(), "cuCtxEnablePeerAccess: CUDA_ERROR_TOO_MANY_PEERS") {
		t.Errorf("Error() = %q", err)
	}
	if got := ErrorName(errors.New("socket closed")); got != "socket closed" {
		t.Errorf("ErrorName of another error = %q", got)
	}
}
