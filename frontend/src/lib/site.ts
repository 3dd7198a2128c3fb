export const SITE_NAME = 'Yoo云游戏';
