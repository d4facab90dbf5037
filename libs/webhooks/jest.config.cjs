module.exports = { displayName: 'webhooks', preset: '../../jest.preset.cjs' };
