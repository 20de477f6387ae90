export {
  cameraErrorMessage,
  type DeviceFailure,
  MediaPublishError,
  microphoneErrorMessage,
} from './device-errors.ts';
export {
  type ConnectOptions,
  connectMediaRoom,
  type MediaConnectionState,
  type MediaPeer,
  type MediaRoom,
  type MediaRoomEvents,
  type RemoteMediaTrack,
} from './media-room.ts';
export {
  type MediaServerStatus,
  mediaServerStatusKey,
  toMediaServerStatus,
  useMediaServerStatus,
} from './media-server-status.ts';
