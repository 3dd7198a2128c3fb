import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The dev server proxies the API and the WebSocket to a local yoo-server (YOO_SERVER, default :8080).
const server = process.env.YOO_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 800 },
  server: {
    proxy: {
      '/api': { target: server, changeOrigin: true },
      '/echo': { target: server, ws: true, changeOrigin: true },
    },
  },
  test: {
    environment: 'happy-dom',
    globals: true,
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
});
