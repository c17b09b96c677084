// Package parallel runs the same work on many items with a fixed number of
// goroutines, the one way the project spreads work over the cores. Each
// goroutine has a number, so that work can keep state of its own (a
// buffer, an analyzer) from one item to the next, and the first error stops
// the rest.
package parallel

import (
	"context"
	"runtime"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// Workers is the number of goroutines For starts by default: one per core.
func Workers() int { return runtime.GOMAXPROCS(0) }

// For calls work(worker, i) for every i from 0 to n-1 on at most workers
// goroutines, worker being the goroutine's number from 0 to workers-1; each
// goroutine takes the next i when it is done with one. It returns the first
// error of work, or ctx's error when ctx ends first; either stops the
// goroutines at their next item.
func For(ctx context.Context, n, workers int, work func(worker, i int) error) error {
	g, ctx := errgroup.WithContext(ctx)
	var next atomic.Int64
	for w := range max(1, min(workers, n)) {
		g.Go(func() error {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return nil
				}
				if err := ctx.Err(); err != nil {
					return err
				}
				if err := work(w, i); err != nil {
					return err
				}
			}
		})
	}
	return g.Wait()
}
