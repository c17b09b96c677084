package parallel

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// Every item is done once, by a worker whose number is in range, and no
// more goroutines run at once than asked for.
func TestForEachItemOnce(t *testing.T) {
	for _, c := range []struct{ n, workers int }{{0, 4}, {1, 4}, {1000, 1}, {1000, 3}, {5, 0}} {
		done := make([]atomic.Int32, c.n)
		var running, most atomic.Int32
		err := For(context.Background(), c.n, c.workers, func(w, i int) error {
			r := running.Add(1)
			defer running.Add(-1)
			for m := most.Load(); r > m && !most.CompareAndSwap(m, r); m = most.Load() {
			}
			if w < 0 || w >= max(1, c.workers) {
				t.Errorf("worker %d of %d", w, c.workers)
			}
			done[i].Add(1)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range done {
			if d := done[i].Load(); d != 1 {
				t.Errorf("n=%d workers=%d: item %d done %d times", c.n, c.workers, i, d)
			}
		}
		if int(most.Load()) > max(1, c.workers) {
			t.Errorf("n=%d: %d at once, asked for %d", c.n, most.Load(), c.workers)
		}
	}
}

// The first error is returned and the workers stop taking items.
func TestForStopsAtFirstError(t *testing.T) {
	bad := errors.New("bad item")
	const n = 1000000
	var done atomic.Int32
	err := For(context.Background(), n, 4, func(_, i int) error {
		done.Add(1)
		if i == 10 {
			return bad
		}
		return nil
	})
	if !errors.Is(err, bad) {
		t.Fatalf("err = %v, want %v", err, bad)
	}
	if d := done.Load(); d > n/2 {
		t.Errorf("%d of %d items done after the error at item 10", d, n)
	}
}

// A context that ends stops the work with its error.
func TestForContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	n := 0
	err := For(ctx, 10, 1, func(_, _ int) error { n++; return nil })
	if !errors.Is(err, context.Canceled) || n != 0 {
		t.Errorf("err = %v after %d items", err, n)
	}
}
