/** A short two-tone alarm from the Web Audio API (no audio file). Silently does nothing when audio is unavailable or blocked. */
export function playAlarm(): void {
  try {
    const AudioContextClass = window.AudioContext as typeof AudioContext | undefined;
    if (AudioContextClass === undefined) return;
    const context = new AudioContextClass();
    const gain = context.createGain();
    gain.gain.value = 0.15;
    gain.connect(context.destination);
    [880, 660, 880].forEach((frequency, index) => {
      const oscillator = context.createOscillator();
      oscillator.type = 'square';
      oscillator.frequency.value = frequency;
      oscillator.connect(gain);
      const start = context.currentTime + index * 0.25;
      oscillator.start(start);
      oscillator.stop(start + 0.2);
    });
    setTimeout(() => void context.close(), 1200);
  } catch {
    // Autoplay rules may block sound until the user interacts with the page: the modal still shows.
  }
}
