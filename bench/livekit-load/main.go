// Command livekit-load puts one 720p publisher and N subscribers into one LiveKit room and reports how
// many subscribers keep receiving the whole video bitrate. It is Kadr's stand-in for `lk load-test`
// (livekit-cli is not served by the Go module proxy here), built on the same Go SDK that lk load-test uses.
//
// Tokens come from the caller (bench/livestreams-load.ts mints them with Kadr's own token issuer, so the
// grants are exactly the ones the app hands out): the first line of -tokens is the host's, every further
// line is one viewer's. The video is a pre-encoded VP8 IVF file (1280x720) published as the camera.
//
// Output: one JSON object on stdout.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/livekit/protocol/livekit"
	lksdk "github.com/livekit/server-sdk-go/v2"
	"github.com/pion/webrtc/v4"
)

type counter struct {
	bytes      atomic.Int64
	subscribed atomic.Bool
	mu         sync.Mutex
	seq        seqTracker
}

// snapshot is a subscriber's packet accounting at one instant (see seqTracker).
type snapshot struct {
	bytes, received, expected, reordered, duplicates int64
}

func (c *counter) snapshot() snapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	return snapshot{
		bytes:      c.bytes.Load(),
		received:   c.seq.received,
		expected:   c.seq.expected(),
		reordered:  c.seq.reordered,
		duplicates: c.seq.duplicates,
	}
}

// seqTracker counts RTP packets by sequence number the way RFC 3550 (A.3) counts loss: sequence numbers are
// extended past their 16-bit wrap, expected = highest - first + 1, lost = expected - received. A packet that
// arrives after a higher one is *reordered*, not lost: it fills its gap (a gap-per-packet count called each
// reordering two losses). A repeat of a sequence number already seen is a duplicate and not received twice.
type seqTracker struct {
	started    bool
	first      int64
	highest    int64
	received   int64
	reordered  int64
	duplicates int64
	// seen[i] says whether extended sequence number n with n % len(seen) == i arrived, for the last
	// len(seen) numbers below highest: enough to tell a late packet from a duplicate.
	seen [4096]bool
}

func (t *seqTracker) expected() int64 {
	if !t.started {
		return 0
	}
	return t.highest - t.first + 1
}

func (t *seqTracker) add(seq uint16) {
	if !t.started {
		t.started = true
		t.first, t.highest = int64(seq), int64(seq)
		t.received = 1
		t.seen[int64(seq)%int64(len(t.seen))] = true
		return
	}
	// The extended number nearest to highest with these low 16 bits.
	delta := int64(int16(seq - uint16(t.highest)))
	n := t.highest + delta
	window := int64(len(t.seen))
	switch {
	case delta > 0:
		for k := t.highest + 1; k < n && k <= t.highest+window; k++ {
			t.seen[k%window] = false
		}
		t.seen[n%window] = true
		t.highest = n
		t.received++
	case delta == 0 || (t.highest-n < window && t.seen[n%window]):
		t.duplicates++
	case n < t.first:
		// Older than the first packet counted: it belongs to no gap of this count.
		t.reordered++
	default:
		t.seen[n%window] = true
		t.received++
		t.reordered++
	}
}

type result struct {
	Subscribers  int     `json:"subscribers"`
	Connected    int     `json:"connected"`
	Subscribed   int     `json:"subscribed"`
	Sustaining   int     `json:"sustaining"`
	ExpectedKbps float64 `json:"expected_kbps"`
	MedianKbps   float64 `json:"median_kbps"`
	MinKbps      float64 `json:"min_kbps"`
	LossPercent  float64 `json:"loss_percent"`
	// Packets that arrived after a higher sequence number (late, not lost), and repeats of one already seen.
	ReorderedPercent float64  `json:"reordered_percent"`
	Duplicates       int64    `json:"duplicates"`
	EgressMbps       float64  `json:"egress_mbps"`
	ConnectSeconds   float64  `json:"connect_seconds"`
	Errors           []string `json:"errors,omitempty"`
}

// loopingIVF reads an IVF file's header once, then its frames over and over.
type loopingIVF struct {
	data []byte
	pos  int
}

func (l *loopingIVF) Read(p []byte) (int, error) {
	if l.pos >= len(l.data) {
		l.pos = 32
	}
	n := copy(p, l.data[l.pos:])
	l.pos += n
	return n, nil
}

func (l *loopingIVF) Close() error { return nil }

// ivfKbps reads an IVF file's header and frame headers: the payload bitrate of the clip.
func ivfKbps(path string) (float64, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	if len(data) < 32 || string(data[0:4]) != "DKIF" {
		return 0, fmt.Errorf("%s is not an IVF file", path)
	}
	rate := binary.LittleEndian.Uint32(data[16:20])
	scale := binary.LittleEndian.Uint32(data[20:24])
	var payload, frames int64
	for off := 32; off+12 <= len(data); {
		size := int(binary.LittleEndian.Uint32(data[off : off+4]))
		payload += int64(size)
		frames++
		off += 12 + size
	}
	seconds := float64(frames) * float64(scale) / float64(rate)
	return float64(payload) * 8 / seconds / 1000, nil
}

func main() {
	url := flag.String("url", "", "LiveKit signalling URL (ws://127.0.0.1:port)")
	tokensPath := flag.String("tokens", "", "file: host token, then one viewer token per line")
	video := flag.String("video", "", "VP8 IVF file, 1280x720")
	warmup := flag.Duration("warmup", 8*time.Second, "time after the last subscription before measuring")
	duration := flag.Duration("duration", 15*time.Second, "measuring window")
	sustain := flag.Float64("sustain", 0.9, "a subscriber sustains when it receives this share of the bitrate")
	flag.Parse()

	f, err := os.Open(*tokensPath)
	if err != nil {
		fail(err)
	}
	var tokens []string
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 64*1024), 64*1024)
	for scanner.Scan() {
		if line := scanner.Text(); line != "" {
			tokens = append(tokens, line)
		}
	}
	f.Close()
	if len(tokens) < 2 {
		fail(fmt.Errorf("need a host token and at least one viewer token"))
	}
	expected, err := ivfKbps(*video)
	if err != nil {
		fail(err)
	}
	out := result{Subscribers: len(tokens) - 1, ExpectedKbps: expected}
	var errMu sync.Mutex
	addErr := func(e error) {
		errMu.Lock()
		defer errMu.Unlock()
		if len(out.Errors) < 5 {
			out.Errors = append(out.Errors, e.Error())
		}
	}

	host, err := lksdk.ConnectToRoomWithToken(*url, tokens[0], &lksdk.RoomCallback{}, lksdk.WithAutoSubscribe(false))
	if err != nil {
		fail(fmt.Errorf("host connect: %w", err))
	}
	defer host.Disconnect()
	clip, err := os.ReadFile(*video)
	if err != nil {
		fail(err)
	}
	// The clip plays in a loop (it starts on a keyframe), so a short file serves any test length.
	track, err := lksdk.NewLocalReaderTrack(&loopingIVF{data: clip}, webrtc.MimeTypeVP8,
		lksdk.ReaderTrackWithFrameDuration(time.Second/30))
	if err != nil {
		fail(err)
	}
	if _, err := host.LocalParticipant.PublishTrack(track, &lksdk.TrackPublicationOptions{
		Name: "camera", Source: livekit.TrackSource_CAMERA, VideoWidth: 1280, VideoHeight: 720,
	}); err != nil {
		fail(fmt.Errorf("publish: %w", err))
	}

	counters := make([]*counter, len(tokens)-1)
	rooms := make([]*lksdk.Room, len(tokens)-1)
	started := time.Now()
	var wg sync.WaitGroup
	// Joins in small waves, as viewers arrive, so the signalling burst does not dominate.
	for i := range counters {
		counters[i] = &counter{}
		c := counters[i]
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cb := &lksdk.RoomCallback{ParticipantCallback: lksdk.ParticipantCallback{
				OnTrackSubscribed: func(t *webrtc.TrackRemote, _ *lksdk.RemoteTrackPublication, _ *lksdk.RemoteParticipant) {
					if t.Kind() != webrtc.RTPCodecTypeVideo {
						return
					}
					c.subscribed.Store(true)
					go func() {
						for {
							pkt, _, err := t.ReadRTP()
							if err != nil {
								return
							}
							c.mu.Lock()
							c.bytes.Add(int64(len(pkt.Payload)))
							c.seq.add(pkt.SequenceNumber)
							c.mu.Unlock()
						}
					}()
				},
			}}
			room, err := lksdk.ConnectToRoomWithToken(*url, tokens[i+1], cb)
			if err != nil {
				addErr(err)
				return
			}
			rooms[i] = room
		}(i)
		if i%10 == 9 {
			time.Sleep(200 * time.Millisecond)
		}
	}
	wg.Wait()
	for _, r := range rooms {
		if r != nil {
			out.Connected++
			defer r.Disconnect()
		}
	}
	// Wait (bounded) for every connected viewer's video subscription.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		n := 0
		for _, c := range counters {
			if c.subscribed.Load() {
				n++
			}
		}
		out.Subscribed = n
		if n >= out.Connected {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	out.ConnectSeconds = time.Since(started).Seconds()
	time.Sleep(*warmup)

	before := make([]snapshot, len(counters))
	for i, c := range counters {
		before[i] = c.snapshot()
	}
	time.Sleep(*duration)
	var kbps []float64
	var totalBytes, expectedPackets, receivedPackets, reordered int64
	for i, c := range counters {
		now := c.snapshot()
		b := now.bytes - before[i].bytes
		totalBytes += b
		expectedPackets += now.expected - before[i].expected
		receivedPackets += now.received - before[i].received
		reordered += now.reordered - before[i].reordered
		out.Duplicates += now.duplicates - before[i].duplicates
		k := float64(b) * 8 / duration.Seconds() / 1000
		kbps = append(kbps, k)
		if k >= *sustain*expected {
			out.Sustaining++
		}
	}
	sort.Float64s(kbps)
	out.MedianKbps = kbps[len(kbps)/2]
	out.MinKbps = kbps[0]
	if expectedPackets > 0 {
		// A packet of a gap at the window's end that arrives after it counts as lost here: a window of
		// seconds against reordering of milliseconds keeps that negligible.
		lost := max(expectedPackets-receivedPackets, 0)
		out.LossPercent = float64(lost) * 100 / float64(expectedPackets)
		out.ReorderedPercent = float64(reordered) * 100 / float64(expectedPackets)
	}
	out.EgressMbps = float64(totalBytes) * 8 / duration.Seconds() / 1e6
	enc := json.NewEncoder(os.Stdout)
	_ = enc.Encode(out)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "livekit-load:", err)
	os.Exit(1)
}
