/** Average of the channels: the signature is computed on mono audio. */
export function mixToMono(channels: readonly Float32Array[]): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first;
  let length = first.length;
  for (const channel of channels) length = Math.min(length, channel.length);
  const mono = new Float32Array(length);
  for (const channel of channels) {
    for (let i = 0; i < length; i++) mono[i] = (mono[i] as number) + (channel[i] as number);
  }
  const scale = 1 / channels.length;
  for (let i = 0; i < length; i++) mono[i] = (mono[i] as number) * scale;
  return mono;
}
