package logs

import (
	"bytes"
	"encoding/binary"
	"sort"
	"sync"
)

// matcher finds the lines of a block that contain any of a set of literal key phrases
// in one pass over the block, the way grep -F does with several patterns, instead of
// one substring search per phrase.
//
// It is a Wu-Manber search: a window of m bytes (m = the shortest phrase) slides over
// the text; a table indexed by a hash of the window's last 4 bytes says how far the
// window can move without skipping an occurrence (up to m-3 bytes at a time, since
// text rarely holds a 4-byte block of a phrase). Only when the table says 0 are the
// phrases whose first m bytes end with that block compared. Phrases shorter than
// mmMin bytes fall back to one bytes.Index pass each.
//
// Besides the key phrases it can look for a few marker literals (flags: CRI partial
// records, section headers) in the same pass, and only reports whether each was seen,
// so the rarely needed exact searches for them are skipped in blocks that lack them.
type matcher struct {
	pats   [][]byte
	flag   []uint8   // 0 for a key phrase, else the bit reported when the literal is seen
	m      int       // length of the shortest literal (>= mmMin when wm is used)
	shift  []uint8   // by block hash
	bucket [][]int32 // by block hash: literals whose m-prefix ends with that block
	wm     bool
}

// marker is a literal searched with the key phrases; seeing it sets bit.
type marker struct {
	lit []byte
	bit uint8
}

const (
	mmBlock = 4  // bytes hashed per block
	mmMin   = 6  // shortest phrase for the Wu-Manber search
	mmBits  = 16 // table size 1<<mmBits
	// parallelMin: blocks at least this long are searched by two goroutines.
	parallelMin = 256 << 10
)

func mmHash(x uint32) uint16 { return uint16((x * 0x9E3779B1) >> (32 - mmBits)) }

func newMatcher(pats [][]byte, markers ...marker) *matcher {
	mt := &matcher{}
	for _, p := range pats {
		if len(p) > 0 {
			mt.pats = append(mt.pats, p)
			mt.flag = append(mt.flag, 0)
		}
	}
	if len(mt.pats) == 0 {
		return mt
	}
	for _, mk := range markers {
		mt.pats = append(mt.pats, mk.lit)
		mt.flag = append(mt.flag, mk.bit)
	}
	mt.m = len(mt.pats[0])
	for _, p := range mt.pats {
		mt.m = min(mt.m, len(p))
	}
	if mt.m < mmMin || mt.m-mmBlock+1 > 255 {
		return mt
	}
	mt.wm = true
	maxShift := uint8(mt.m - mmBlock + 1)
	mt.shift = make([]uint8, 1<<mmBits)
	for i := range mt.shift {
		mt.shift[i] = maxShift
	}
	mt.bucket = make([][]int32, 1<<mmBits)
	for pi, p := range mt.pats {
		// the block ending at offset e (inclusive) of the m-prefix may shift the window by m-1-e
		for e := mmBlock - 1; e < mt.m; e++ {
			h := mmHash(binary.LittleEndian.Uint32(p[e-mmBlock+1:]))
			if s := uint8(mt.m - 1 - e); s < mt.shift[h] {
				mt.shift[h] = s
			}
			if e == mt.m-1 {
				mt.bucket[h] = append(mt.bucket[h], int32(pi))
			}
		}
	}
	return mt
}

// lineStarts returns, in order, the start offsets of the lines of data that contain a
// key phrase (each line once), and the bits of the markers seen in data (a marker
// after a key phrase on the same line is not reported: markers are line prefixes).
// Large blocks are searched by two goroutines, split at a line boundary.
func (mt *matcher) lineStarts(data []byte) ([]int, uint8) {
	if len(mt.pats) == 0 {
		return nil, 0
	}
	if len(data) < parallelMin {
		return mt.appendLineStarts(nil, data, 0)
	}
	mid := bytes.IndexByte(data[len(data)/2:], '\n')
	if mid < 0 {
		return mt.appendLineStarts(nil, data, 0)
	}
	mid += len(data)/2 + 1
	var second []int
	var seen2 uint8
	var wg sync.WaitGroup
	var crash any // a panic of the helper goroutine, raised again here for ScanFile to catch
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer func() { crash = recover() }()
		second, seen2 = mt.appendLineStarts(nil, data[mid:], mid)
	}()
	first, seen := mt.appendLineStarts(nil, data[:mid], 0)
	wg.Wait()
	if crash != nil {
		panic(crash)
	}
	return append(first, second...), seen | seen2
}

// appendLineStarts appends base+the start of every line of data holding a key phrase.
func (mt *matcher) appendLineStarts(out []int, data []byte, base int) ([]int, uint8) {
	if !mt.wm {
		return mt.appendLineStartsSlow(out, data, base)
	}
	var seen uint8
	m := mt.m
	n := len(data)
	shift := mt.shift
	i := m - 1 // end of the window
	for i < n {
		h := mmHash(binary.LittleEndian.Uint32(data[i-mmBlock+1:]))
		if s := shift[h]; s != 0 {
			i += int(s)
			continue
		}
		st := i - m + 1
		hit := false
		for _, pi := range mt.bucket[h] {
			if bytes.HasPrefix(data[st:], mt.pats[pi]) {
				if f := mt.flag[pi]; f != 0 {
					seen |= f
					continue
				}
				hit = true
				break
			}
		}
		if !hit {
			i++
			continue
		}
		ls := bytes.LastIndexByte(data[:st], '\n') + 1
		out = append(out, base+ls)
		nl := bytes.IndexByte(data[st:], '\n')
		if nl < 0 {
			break
		}
		i = st + nl + 1 + m - 1
	}
	return out, seen
}

// appendLineStartsSlow searches each phrase in turn (phrases too short for the table).
func (mt *matcher) appendLineStartsSlow(out []int, data []byte, base int) ([]int, uint8) {
	var starts []int
	var seen uint8
	for pi, k := range mt.pats {
		if f := mt.flag[pi]; f != 0 {
			if bytes.Contains(data, k) {
				seen |= f
			}
			continue
		}
		off := 0
		for {
			i := bytes.Index(data[off:], k)
			if i < 0 {
				break
			}
			abs := off + i
			starts = append(starts, bytes.LastIndexByte(data[:abs], '\n')+1)
			nl := bytes.IndexByte(data[abs:], '\n')
			if nl < 0 {
				break
			}
			off = abs + nl + 1
		}
	}
	if len(starts) == 0 {
		return out, seen
	}
	sort.Ints(starts)
	prev := -1
	for _, v := range starts {
		if v != prev {
			out = append(out, base+v)
			prev = v
		}
	}
	return out, seen
}

// contains reports whether b holds a key phrase.
func (mt *matcher) contains(b []byte) bool {
	for pi, k := range mt.pats {
		if mt.flag[pi] == 0 && bytes.Contains(b, k) {
			return true
		}
	}
	return false
}

// matchers holds the matchers built so far by their literals: every file of a bundle is
// scanned for the same key phrases, and a matcher (its shift table and buckets, about
// 1.5 MB) is read-only once built, so the files share one instead of building and
// clearing one each (most of the time spent on a bundle of many small logs).
var matchers struct {
	sync.Mutex
	m map[string]*matcher
}

// maxMatchers bounds the cache (callers with ever new phrase sets start it over).
const maxMatchers = 16

// sharedMatcher is newMatcher(pats, markers...), built once per distinct set of literals.
func sharedMatcher(pats [][]byte, markers ...marker) *matcher {
	var key []byte
	for _, p := range pats {
		key = binary.AppendUvarint(key, uint64(len(p)))
		key = append(key, p...)
	}
	for _, mk := range markers {
		key = append(key, 0xff, mk.bit)
		key = binary.AppendUvarint(key, uint64(len(mk.lit)))
		key = append(key, mk.lit...)
	}
	matchers.Lock()
	defer matchers.Unlock()
	if mt, ok := matchers.m[string(key)]; ok {
		return mt
	}
	if matchers.m == nil || len(matchers.m) >= maxMatchers {
		matchers.m = map[string]*matcher{}
	}
	mt := newMatcher(pats, markers...)
	matchers.m[string(key)] = mt
	return mt
}
