package main

import "testing"

func track(seqs ...uint16) seqTracker {
	var t seqTracker
	for _, s := range seqs {
		t.add(s)
	}
	return t
}

func TestReorderedIsNotLost(t *testing.T) {
	// 1 2 4 3 5: one packet late, none lost (a gap count called this two losses).
	tr := track(1, 2, 4, 3, 5)
	if got := tr.expected() - tr.received; got != 0 {
		t.Fatalf("lost = %d, want 0", got)
	}
	if tr.reordered != 1 {
		t.Fatalf("reordered = %d, want 1", tr.reordered)
	}
}

func TestGapIsLost(t *testing.T) {
	tr := track(10, 11, 14, 15)
	if got := tr.expected() - tr.received; got != 2 {
		t.Fatalf("lost = %d, want 2", got)
	}
	if tr.reordered != 0 {
		t.Fatalf("reordered = %d, want 0", tr.reordered)
	}
}

func TestDuplicatesCountOnce(t *testing.T) {
	tr := track(1, 2, 2, 3, 1)
	if tr.received != 3 || tr.duplicates != 2 {
		t.Fatalf("received %d duplicates %d, want 3 and 2", tr.received, tr.duplicates)
	}
}

func TestWrapAround(t *testing.T) {
	// 65534 65535 1 0 2: across the 16-bit wrap, one late packet, nothing lost.
	tr := track(65534, 65535, 1, 0, 2)
	if tr.expected() != 5 || tr.received != 5 || tr.reordered != 1 {
		t.Fatalf("expected %d received %d reordered %d, want 5 5 1", tr.expected(), tr.received, tr.reordered)
	}
}
